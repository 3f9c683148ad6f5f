/* The kernel's asm-offsets trick: -S, then sed over "->" markers. */
#define DEFINE(sym, val) \
	__asm__ __volatile__("\n.ascii \"->" #sym " %0 " #val "\"" : : "i" (val))
#define OFFSET(sym, str, mem) DEFINE(sym, __builtin_offsetof(struct str, mem))
struct task { long state; void *stack; int cpu; };
void common(void);
void common(void)
{
	OFFSET(TASK_state, task, state);
	OFFSET(TASK_stack, task, stack);
	OFFSET(TASK_cpu, task, cpu);
	DEFINE(TASK_size, sizeof(struct task));
}
