/*
 * A symbol with two .comm lines: the asm's own and the compiler's (under
 * -fcommon).  GAS keeps one common symbol.  With the same size and
 * alignment asmfix's common pass defines it once; with another alignment
 * it is not the pass's to choose, GNU as rejects the repaired assembly,
 * and ccd falls back to the backend's own (tests/ccd/safety-net.sh).
 */
#ifndef ASM_ALIGN
#define ASM_ALIGN "32"
#endif
asm(".comm shared_buf,64," ASM_ALIGN);
int shared_buf[16];

int read_buf(int i)
{
	return shared_buf[i];
}
