# An x86-64 machine of the next generation: AMD Zen 5 (Ryzen 9000, EPYC
# 9005), beside x86-64.profile's Zen 4.  Sources:
#   [SOG]  AMD, "Software Optimization Guide for the AMD Zen5
#          Microarchitecture", publication 58455, rev. 1.00 (2024), as
#          quoted by [LLVM] and [JC]
#   [LLVM] LLVM's scheduling model, llvm/lib/Target/X86/X86ScheduleZnver5.td
#          (LLVM 19 had no Zen 5 model: -mcpu=znver5 used Zen 4's)
#   [IL]   InstLatx64 (github.com/InstLatx64/InstLatx64), AuthenticAMD/
#          AuthenticAMD0B40F40_K20_GraniteRidge_02_256b_InstLatX64.txt and
#          _CPUID.txt: a Ryzen 9 9950X at 4.30 GHz; it has no memory
#          latency file for a Zen 5 part
#   [JC]   Jiajie Chen, "AMD Zen 5 微架构评测" (jia.je, 2024): the SOG's
#          figures beside pointer-chasing measurements on a Ryzen 9 9950X
#   [CnC]  Chips and Cheese, "AMD's Ryzen 9950X: Zen 5 on Desktop" (2024):
#          the IO die and its 2 GHz Infinity Fabric are Zen 4's
#   [Zen4] x86-64.profile's figure, where no Zen 5 one was found
name = x86-64 (AMD Zen 5)
# The additive formula's base: the model's own choice, as Zen 4's.
cpi = 0.5
width = 8                  # [LLVM] 8 macro-ops dispatched a cycle ([SOG] 2.9.7)
# [LLVM] 448 macro-ops in flight, 224 a thread under SMT ([SOG] 2.10.3);
# [JC] one thread fills 224 entries of two macro-ops each
rob = 448
l1_latency = 4             # [SOG] 4 or 5 cycles load to use (integer); [IL] 4.0; [JC] 4
l1i = 32K 8 64             # [SOG] 32 KB, 8-way; [IL] the same
l1d = 48K 12 64            # [SOG] 48 KB, 12-way; [IL] the same
l2 = 1M 16 64              # [SOG] 1 MB private, 16-way; [IL] the same
llc = 32M 16 64            # [IL] 32 MB L3 per CCD, 16-way
l2_latency = 14            # [SOG] at least 14 cycles load to use; [JC] 14
# [Zen4] 54: the same 32 MB, 16-way L3 per CCD; no Zen 5 measurement
# was found.
llc_latency = 54
# [Zen4] 320: [CnC] the memory is behind the same IO die; no Zen 5
# measurement was found.
memory_latency = 320
# A line another core of the CCX wrote: [Zen4] 82; no Zen 5 measurement
# was found.
coherence_latency = 82
branch_penalty = 15        # [LLVM] 12 to 18 cycles, the common case 15 ([SOG] 2.8)
# The predictor's sizes are the model's (TAGE), as Zen 4's; the return
# stack is [SOG]'s 52 entries a thread, [JC] measured 52.
bp_history = 16
tage = 8 11 4 640
btb_entries = 4096
ras_depth = 52
# The front end.
fetch_bytes = 32           # [JC] two 32-byte blocks a cycle ([SOG])
fetch_windows = 2          # [JC] two taken branches a cycle (the 2-ahead predictor)
# [JC] 16K entries ([SOG]); its ways and bubble not found: the model's,
# no bubble as in Zen 4's first level
btb1 = 16384 8 0
btb2 = 8192 8 3            # [JC] 8K entries ([SOG]); ways and bubble [Zen4]'s
btb_redirect = 5           # [Zen4]'s: not published
prefetch = 24              # [Zen4]'s: not published
fetch_misses = 4           # [Zen4]'s: not published
itlb = 64 64 2048 8        # [JC] 64 fully associative, L2 2048 8-way ([SOG], measured)
dtlb = 96 96 4096 16       # [JC] 96 fully associative, L2 4096 16-way ([SOG], measured)
tlb_latency = 7            # [JC] measured: an L2 TLB hit makes a load's 4 cycles 11
