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

# Every exception vector jumps here (see exception.rs). Reports Cause, EPC
# and BadVAddr to Rust, which panics with them: nothing is resumed.
    .global n64_exception_entry
n64_exception_entry:
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
    .set reorder
