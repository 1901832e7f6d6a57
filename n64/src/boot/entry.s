# Program entry (_start, the first byte at 0x80000400, where the IPL3 jumps)
# and the common exception handler.

    .section .text.entry, "ax", @progbits
    .set noreorder
    .global _start
_start:
    lui     $sp, %hi(__stack_top)
    addiu   $sp, $sp, %lo(__stack_top)
    lui     $gp, %hi(_gp)
    addiu   $gp, $gp, %lo(_gp)
    # Clear .sbss and .bss (the IPL3 copied only the file contents).
    lui     $t0, %hi(__bss_start)
    addiu   $t0, $t0, %lo(__bss_start)
    lui     $t1, %hi(__bss_end)
    addiu   $t1, $t1, %lo(__bss_end)
1:  beq     $t0, $t1, 2f
    nop
    sw      $zero, 0($t0)
    b       1b
    addiu   $t0, $t0, 4
2:  jal     n64_start
    nop
3:  b       3b
    nop

# Every exception vector jumps here (see exception.rs). Interrupts are
# handled here, with k0/k1 only (reserved for this by the ABI, so nothing
# needs saving): the VI (MI interrupt on IP2) is acknowledged and counted in
# N64_VI_FRAMES, with the Count of that moment in N64_VI_COUNT; the COP0
# timer (IP7, the give-up of vi::wait_vsync) is acknowledged. If the CPU was
# inside n64_vi_wait, it resumes after the wait. Anything else -- other
# exceptions, unexpected RCP interrupts, cache errors (ERL) -- reports
# Cause, EPC and BadVAddr to Rust, which panics with them.
    .global n64_exception_entry
n64_exception_entry:
    # (The nops after mfc0 keep each result away from its first use, as
    # timer.rs does: CP0 reads are not interlocked on every MIPS.)
    mfc0    $k1, $12                # Status: ERL set = cache error / reset
    nop
    andi    $k1, $k1, 0x0004
    bnez    $k1, fatal
    mfc0    $k0, $13                # (delay slot) Cause
    nop
    andi    $k1, $k0, 0x007C        # ExcCode 0 = interrupt
    bnez    $k1, fatal
    andi    $k1, $k0, 0x8000        # (delay slot) IP7: COP0 timer
    beqz    $k1, 1f
    nop
    mfc0    $k1, $11                # rewriting Compare clears IP7
    nop
    mtc0    $k1, $11
1:  andi    $k1, $k0, 0x0400        # IP2: an RCP interrupt (MI)
    beqz    $k1, 3f
    lui     $k0, 0xA430             # (delay slot) MI registers
    lw      $k1, 0x08($k0)          # MI_INTERRUPT
    lw      $k0, 0x0C($k0)          # MI_MASK
    and     $k1, $k1, $k0
    andi    $k0, $k1, 0x0037        # enabled sources other than the VI
    bnez    $k0, fatal
    andi    $k1, $k1, 0x0008        # (delay slot) the VI
    beqz    $k1, 3f
    lui     $k0, 0xA440             # (delay slot) VI registers
    sw      $zero, 0x10($k0)        # VI_V_CURRENT: acknowledge
    lui     $k0, %hi(N64_VI_FRAMES)
    lw      $k1, %lo(N64_VI_FRAMES)($k0)
    addiu   $k1, $k1, 1
    sw      $k1, %lo(N64_VI_FRAMES)($k0)
    mfc0    $k1, $9                 # Count
    lui     $k0, %hi(N64_VI_COUNT)
    sw      $k1, %lo(N64_VI_COUNT)($k0)
    # Interrupted in n64_vi_wait (check..done)? Resume at done.
3:  mfc0    $k0, $14                # EPC
    lui     $k1, %hi(n64_vi_wait_check)
    addiu   $k1, $k1, %lo(n64_vi_wait_check)
    sltu    $k1, $k0, $k1
    bnez    $k1, 4f
    lui     $k1, %hi(n64_vi_wait_done)
    addiu   $k1, $k1, %lo(n64_vi_wait_done)
    sltu    $k0, $k0, $k1
    beqz    $k0, 4f
    nop
    mtc0    $k1, $14                # EPC = n64_vi_wait_done
    nop                             # CP0 hazard before eret
    nop
4:  .set push
    .set mips3                      # eret (the program is built for MIPS II)
    eret
    .set pop
    nop

fatal:
    mfc0    $a0, $13                # Cause
    mfc0    $a1, $14                # EPC
    mfc0    $a2, $8                 # BadVAddr
    lui     $sp, %hi(__stack_top)
    addiu   $sp, $sp, %lo(__stack_top)
    addiu   $sp, $sp, -256
    lui     $t0, %hi(n64_exception)
    addiu   $t0, $t0, %lo(n64_exception)
    jr      $t0
    nop

# n64_vi_wait(seen: u32, start: u32, limit: u32): returns once
# N64_VI_FRAMES != seen (a VI came), Count - start >= limit (the give-up),
# or an interrupt arrived (the COP0 timer armed for the give-up), waiting in
# an idle loop the emulators skip: a branch to itself with a nop in its delay
# slot (mupen64plus jumps Count to the next interrupt). The interrupt
# handler moves EPC anywhere in check..done to done, so neither a VI nor the
# timer between the checks and the loop is missed.
    .global n64_vi_wait
n64_vi_wait:
    lui     $t0, %hi(N64_VI_FRAMES)
n64_vi_wait_check:
    lw      $t1, %lo(N64_VI_FRAMES)($t0)
    bne     $t1, $a0, n64_vi_wait_done
    nop
    mfc0    $t1, $9                 # Count
    nop
    subu    $t1, $t1, $a1           # ticks since start
    sltu    $t1, $t1, $a2
    beqz    $t1, n64_vi_wait_done   # the limit has passed
    nop
n64_vi_wait_idle:
    b       n64_vi_wait_idle
    nop
n64_vi_wait_done:
    jr      $ra
    nop
    .set reorder
