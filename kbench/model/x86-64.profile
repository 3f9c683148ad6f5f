# kbench's default machine: a current x86-64 core, AMD Zen 4 (Ryzen 7000,
# EPYC 9004).  Sources:
#   [SOG]  AMD, "Software Optimization Guide for the AMD Zen4
#          Microarchitecture", publication 57647, rev. 1.00 (2023)
#   [CnC]  Chips and Cheese, "AMD's Zen 4 Part 2: Memory Subsystem and
#          Conclusion" (2022): measured latencies
name = x86-64 (AMD Zen 4)
# The additive formula's base (machines whose code the core's timing
# cannot read): the model's own choice, two instructions per cycle.
cpi = 0.5
# The core's timing: each instruction waits for its registers and takes
# its latency in a reorder window.
width = 6                  # [SOG] 6 macro-ops dispatched a cycle
rob = 320                  # [SOG] 320-entry retire queue
l1_latency = 4             # [SOG] 4 cycles load to use (integer)
l1i = 32K 8 64             # [SOG] 32 KB, 8-way, 64-byte lines
l1d = 32K 8 64             # [SOG] 32 KB, 8-way, 64-byte lines
l2 = 1M 8 64               # [SOG] 1 MB private, 8-way
llc = 32M 16 64            # [SOG] 32 MB L3 per CCX, 16-way
l2_latency = 14            # [SOG] 14 cycles load to use
llc_latency = 50           # [SOG] 50 cycles on average
memory_latency = 350       # [CnC] about 73 ns of DDR5 at about 4.8 GHz
# A line another core of the CCX wrote: measured core-to-core latency
# within a CCX, 15 to 19 ns; about 17 ns at 4.8 GHz.
coherence_latency = 82
branch_penalty = 13        # [SOG] 11 to 18 cycles; the common case
# The predictor's sizes are the model's (gshare, far simpler than the
# real one); the return stack is [SOG]'s 32 entries.
bp_history = 16
btb_entries = 4096
ras_depth = 32
