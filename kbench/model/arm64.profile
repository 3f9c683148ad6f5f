# kbench's arm64 machine: Arm Neoverse N1 (AWS Graviton2, Ampere Altra).
# Sources:
#   [TRM]  Arm, "Arm Neoverse N1 Core Technical Reference Manual",
#          100616, r4p1
#   [SOG]  Arm, "Arm Neoverse N1 Software Optimization Guide" (2019)
#   [AT]   AnandTech, "Amazon's Arm-based Graviton2 Against AMD and
#          Intel" (2020): measured latencies of Graviton2 at 2.5 GHz
name = arm64 (Arm Neoverse N1)
# The additive formula's base (used only without the core's timing): the
# model's own choice, a 4-wide core on kernel code.
cpi = 0.6
width = 4                  # [SOG] 4 instructions decoded a cycle
rob = 128                  # [SOG] 128-entry reorder buffer
l1_latency = 4             # [SOG] L1 load to use, 4 cycles
l1i = 64K 4 64             # [TRM] 64 KB, 4-way, 64-byte lines
l1d = 64K 4 64             # [TRM] 64 KB, 4-way, 64-byte lines
l2 = 1M 8 64               # [TRM] 256 KB to 1 MB, 8-way; Graviton2 has 1 MB
llc = 32M 16 64            # [AT] Graviton2's 32 MB system level cache
l2_latency = 11            # [SOG] L2 load to use, 11 cycles
llc_latency = 80           # [AT] about 32 ns
memory_latency = 300       # [AT] about 120 ns
# A line another core wrote: measured core-to-core latency across
# Graviton2's mesh, 30 to 60 ns; about 45 ns at 2.5 GHz.
coherence_latency = 112
branch_penalty = 11        # [SOG] 11 cycles
# The predictor's sizes are the model's (TAGE, as x86-64's: not published).
bp_history = 16
tage = 8 11 4 640
btb_entries = 4096
ras_depth = 16
# The front end.  [HC] Arm's Hot Chips 31 talk and "The Arm Neoverse N1
# Platform" (IEEE Micro 40(2), 2020), as quoted by [JC] Jiajie Chen,
# "ARM Neoverse N1 的 BTB 结构分析" (jia.je, 2025), with his measurements;
# [TLB] three restatements of N1's TLBs (papers measuring Ampere Altra).
fetch_bytes = 16           # [HC] 16 bytes (4 instructions) fetched a cycle
# [HC] the 16-entry nano BTB: no bubble; the 64-entry micro BTB between
# it and the main one (one bubble) has no level of its own here
btb1 = 16 16 0
btb2 = 6144 6 2            # [HC] 6K branches, a 3-cycle access; [JC] measured 2 to 3 a taken branch
btb_redirect = 5           # [JC] measured: about 5 cycles a taken branch no level holds
prefetch = 12              # [HC] the 12-entry queue of predicted fetch addresses
fetch_misses = 4           # not published: x86-64.profile's
# [TLB] 48 fully associative each; the 1280-entry 5-way L2 TLB is shared by
# instructions and data, here one of its own each
itlb = 48 48 1280 5
dtlb = 48 48 1280 5
tlb_latency = 7            # not published for N1: x86-64.profile's
