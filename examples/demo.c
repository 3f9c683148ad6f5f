/* Shows what asmfix repairs in real compiler output: compiled with
 * -fcommon, 'counter' and 'buffer' become .comm symbols (as icc emits
 * even under -fno-common), which the kernel's module loader rejects. */
int counter;
char buffer[256];
static int keep_me __attribute__((used)) = 42;

/* A keep-alive accessor (kernel-patches' convention): asmfix's
 * used-accessors pass removes it after the compiler kept keep_me alive. */
int *__ccd_keep_keep_me(void) { return &keep_me; }

int bump(int n)
{
	buffer[n & 255]++;
	return counter += n;
}
