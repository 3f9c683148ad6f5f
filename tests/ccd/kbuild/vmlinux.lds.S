/* Linker script preprocessed with $(CPP) -P (cmd_cpp_lds_S). */
#include "entry.h"
#ifdef LINKER_SCRIPT
SECTIONS
{
	. = 0x100000;
	.text : { *(.text) }
	magic = ENTRY_MAGIC;
}
#endif
