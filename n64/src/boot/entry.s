# Program entry: _start, the first byte at 0x80000400, where the IPL3 jumps
# after copying the program there (ours, libdragon's compat IPL3 or
# Nintendo's 6102: all load flat, see n64/README.md "Boot").
#
# libdragon's own entry (src/entrypoint.S) expects libdragon's ELF-loading
# IPL3, which leaves its boot flags in DMEM and loads .intvectors to
# 0x80000000 itself. A flat IPL3 leaves the flags in low RAM (0x80000300..)
# and loads one image, so this entry does that part of the handover:
# - the stack at the top of RDRAM (size from boot word 0x318), $gp for
#   libdragon's %gprel accesses, the Status register libdragon's interrupt
#   handler expects (COP1 usable: it saves the FPU registers), a cleared .bss;
# - libdragon's boot globals from the boot words: __boot_memsize (0x318),
#   __boot_tvtype (0x300), __boot_resettype (0x30C), __boot_consoletype = 0
#   (an N64, not an iQue), __entropy_state seeded from Count;
# - libdragon's exception vectors (.intvectors, linked into the image)
#   copied to 0x80000000, written back from the D-cache and dropped from the
#   I-cache;
# - assert() routed to libdragon's debug_assert_func (as its entry does);
# - the C constructors (.init_array, in link order: libdragon's interrupt,
#   joybus and inspector set-up);
# then it calls n64_start (main.rs).

    .section .text.entry, "ax", @progbits
    .set noreorder
    .global _start
_start:
    lui     $t0, 0xA000
    lw      $t1, 0x318($t0)         # RDRAM size in bytes (written by the IPL3)
    lui     $t2, 0x0040             # 4 MiB: fallback for a missing or odd size
    sltu    $t3, $t1, $t2
    bnez    $t3, 1f                 # below 4 MiB: use 4 MiB
    lui     $t3, 0x0080             # (delay slot) 8 MiB
    sltu    $t3, $t3, $t1
    bnez    $t3, 1f                 # above 8 MiB: use 4 MiB
    nop
    move    $t2, $t1
1:  lui     $sp, 0x8000
    addu    $sp, $sp, $t2
    addiu   $sp, $sp, -16
    lui     $gp, %hi(_gp)
    addiu   $gp, $gp, %lo(_gp)
    # Status: COP1 usable, FR, parity errors off, 64-bit addressing in all
    # modes, interrupts off until libdragon enables them.
    lui     $t0, 0x2410
    ori     $t0, $t0, 0x00E0
    mtc0    $t0, $12
    nop
    # Clear .sbss and .bss (the IPL3 copied only the file contents).
    lui     $t0, %hi(__bss_start)
    addiu   $t0, $t0, %lo(__bss_start)
    lui     $t1, %hi(__bss_end)
    addiu   $t1, $t1, %lo(__bss_end)
2:  beq     $t0, $t1, 3f
    nop
    sw      $zero, 0($t0)
    b       2b
    addiu   $t0, $t0, 4
3:
    # libdragon's boot globals.
    lui     $t0, 0xA000
    lui     $t1, %hi(__boot_memsize)
    sw      $t2, %lo(__boot_memsize)($t1)
    lw      $t3, 0x300($t0)
    lui     $t1, %hi(__boot_tvtype)
    sw      $t3, %lo(__boot_tvtype)($t1)
    lw      $t3, 0x30C($t0)
    lui     $t1, %hi(__boot_resettype)
    sw      $t3, %lo(__boot_resettype)($t1)
    lui     $t1, %hi(__boot_consoletype)
    sw      $zero, %lo(__boot_consoletype)($t1)
    mfc0    $t3, $9                 # Count: some entropy
    lui     $t1, %hi(__entropy_state)
    sw      $t3, %lo(__entropy_state)($t1)
    sw      $t3, %lo(__entropy_state+4)($t1)
    # libdragon's vectors: copy .intvectors (linked at its load address in
    # the image) to 0x80000000, write each line back, drop it from the
    # I-cache (cache ops are MIPS III; the program is built for MIPS II).
    lui     $t0, %hi(__intvectors_load)
    addiu   $t0, $t0, %lo(__intvectors_load)
    lui     $t1, %hi(__intvectors_load_end)
    addiu   $t1, $t1, %lo(__intvectors_load_end)
    lui     $t2, 0x8000
4:  beq     $t0, $t1, 5f
    nop
    lw      $t3, 0($t0)
    sw      $t3, 0($t2)
    .set push
    .set mips3
    cache   0x19, 0($t2)            # Hit_Write_Back_D
    cache   0x10, 0($t2)            # Hit_Invalidate_I
    .set pop
    addiu   $t0, $t0, 4
    b       4b
    addiu   $t2, $t2, 4
5:
    # assert() -> libdragon's assertion screen.
    lui     $t0, %hi(debug_assert_func)
    addiu   $t0, $t0, %lo(debug_assert_func)
    lui     $t1, %hi(__assert_func_ptr)
    sw      $t0, %lo(__assert_func_ptr)($t1)
    # Constructors, in link order ($s0/$s1 survive the calls).
    lui     $s0, %hi(__init_array_start)
    addiu   $s0, $s0, %lo(__init_array_start)
    lui     $s1, %hi(__init_array_end)
    addiu   $s1, $s1, %lo(__init_array_end)
6:  beq     $s0, $s1, 7f
    nop
    lw      $t9, 0($s0)
    jalr    $t9
    nop
    b       6b
    addiu   $s0, $s0, 4
7:  jal     n64_start
    nop
8:  b       8b
    nop
    .set reorder
