/* A .S object the way Kbuild builds them (cmd_as_o_S). */
#include "entry.h"
	.text
	.globl	entry_point
entry_point:
	movl	$ENTRY_MAGIC, %eax
	ret
