# Tic-Tac-Toe 64 IPL3: the boot code stored at ROM 0x40..0x1000.
#
# The console's boot ROM (IPL2) copies ROM 0x40..0x1000 to SP DMEM and jumps
# to 0xA4000040 with s3 = ROM type, s4 = TV type (0 PAL, 1 NTSC, 2 MPAL),
# s5 = reset type, s6 = CIC seed, s7 = OS version.
#
# It hands the program the state libdragon's signed "compat" IPL3 leaves
# (the handover contract, n64/README.md "Boot"), so what CI boots with this
# IPL3 is what a console boots with that one:
#   1. kernel mode, interrupts off; every I- and D-cache line invalidated;
#   2. the RSP halted; every RCP interrupt masked in MI_MASK and cleared at
#      its source (SP, SI, AI, VI, PI, DP);
#   3. RDRAM measured (4 or 8 MiB) and cleared to zero, all of it;
#   4. boot words 0x80000300 TV type, 0x304 ROM type, 0x308 ROM base,
#      0x30C reset type, 0x314 OS version, 0x318 RDRAM size (0x310 is NOT
#      written: the compat IPL3 leaves it zero);
#   5. SP DMEM cleared, except the bytes of this IPL3 itself (it runs there);
#   6. 1 MiB DMAed from ROM 0x1000 to the header's boot address (0x08);
#      jump there with $sp 16 bytes below the top of RDRAM (cleared memory).
# It does NOT initialise RDRAM (RI/RDRAM registers) and is not signed for a
# CIC: it runs in emulators (mupen64plus, ares); a real console needs a
# signed IPL3, see n64/README.md (n64rom pack --ipl3 FILE).
#
# Position independent (runs from SP DMEM at 0xA4000040), no relocations:
# it lives in a non-allocated ELF section that n64rom copies to ROM 0x40.
# The ASCII marker at its end lets `n64rom info` recognise it.

    .section .ipl3, "", @progbits
    .set push
    .set mips3                      # `cache`, `sd` (the program is MIPS II)
    .set noreorder
    .set noat

ipl3_start:
    # 1. Kernel mode, interrupts off, COP0 and COP1 usable.
    lui     $t0, 0x3400
    mtc0    $t0, $12                # Status = CU1 | CU0
    mtc0    $zero, $13              # Cause
    mtc0    $zero, $28              # TagLo = 0: invalid line
    mtc0    $zero, $29              # TagHi
    # Instruction cache: 16 KiB, 32-byte lines (Index_Store_Tag_I = 0x08).
    lui     $t0, 0x8000
    ori     $t1, $t0, 0x4000
1:  cache   0x08, 0($t0)
    addiu   $t0, $t0, 32
    bne     $t0, $t1, 1b
    nop
    # Data cache: 8 KiB, 16-byte lines (Index_Store_Tag_D = 0x09).
    lui     $t0, 0x8000
    ori     $t1, $t0, 0x2000
2:  cache   0x09, 0($t0)
    addiu   $t0, $t0, 16
    bne     $t0, $t1, 2b
    nop

    # 2. RSP halted, RCP interrupts masked and cleared.
    lui     $t0, 0xA404
    ori     $t1, $zero, 0x000E
    sw      $t1, 0x10($t0)          # SP_STATUS: set halt, clear broke, clear interrupt
    lui     $t0, 0xA430
    ori     $t1, $zero, 0x0555
    sw      $t1, 0x0C($t0)          # MI_MASK: clear every source
    ori     $t1, $zero, 0x0800
    sw      $t1, 0x00($t0)          # MI_MODE: clear the DP interrupt
    lui     $t0, 0xA480
    sw      $zero, 0x18($t0)        # SI_STATUS: clear the SI interrupt
    lui     $t0, 0xA450
    sw      $zero, 0x0C($t0)        # AI_STATUS: clear the AI interrupt
    lui     $t0, 0xA440
    sw      $zero, 0x10($t0)        # VI_V_CURRENT: clear the VI interrupt
    lui     $t0, 0xA460
    ori     $t1, $zero, 2
    sw      $t1, 0x10($t0)          # PI_STATUS: clear the PI interrupt

    # 3. Memory size: 8 MiB if a pattern written at 4 MiB reads back and is
    #    not an alias of address 0, else 4 MiB. Then clear all of it
    #    (uncached, 32 bytes a pass).
    lui     $t0, 0xA000
    lui     $t2, 0xA040
    lui     $t3, 0x5AA5
    ori     $t3, $t3, 0xC33C
    sw      $t3, 0($t2)
    sw      $zero, 0($t0)
    lw      $t4, 0($t2)
    bne     $t4, $t3, 3f
    lui     $t5, 0x0040             # (delay slot) 4 MiB
    lui     $t5, 0x0080             # 8 MiB
3:  addu    $t1, $t0, $t5           # end of RDRAM (uncached)
4:  sd      $zero, 0($t0)
    sd      $zero, 8($t0)
    sd      $zero, 16($t0)
    addiu   $t0, $t0, 32
    bne     $t0, $t1, 4b
    sd      $zero, -8($t0)          # (delay slot)

    # 4. Boot information (uncached stores straight to RDRAM).
    lui     $t0, 0xA000
    sw      $s4, 0x300($t0)         # TV type
    sw      $s3, 0x304($t0)         # ROM type (0 = cartridge)
    lui     $t1, 0xB000
    sw      $t1, 0x308($t0)         # ROM base
    sw      $s5, 0x30C($t0)         # reset type (0 = cold, 1 = NMI)
    sw      $s7, 0x314($t0)         # OS version
    sw      $t5, 0x318($t0)         # RDRAM size

    # 5. SP DMEM: clear 0x000..0x040 (the ROM header's place) and
    #    everything after this IPL3's own bytes.
    lui     $t0, 0xA400
    ori     $t1, $t0, 0x0040
5:  sw      $zero, 0($t0)
    addiu   $t0, $t0, 4
    bne     $t0, $t1, 5b
    nop
    lui     $t0, 0xA400
    ori     $t0, $t0, (ipl3_end - ipl3_start + 0x40 + 3) & ~3
    lui     $t1, 0xA400
    ori     $t1, $t1, 0x1000
6:  sw      $zero, 0($t0)
    addiu   $t0, $t0, 4
    bne     $t0, $t1, 6b
    nop

    # 6. Wait until the PI is idle, then copy ROM 0x1000 (1 MiB) to the
    #    boot address and jump to it with the stack at the top of RDRAM.
    lui     $t0, 0xA460             # PI registers
7:  lw      $t1, 0x10($t0)          # PI_STATUS: bits 0-1 busy
    andi    $t1, $t1, 3
    bnez    $t1, 7b
    nop
    lui     $t2, 0xB000
    lw      $t3, 0x08($t2)          # boot address from the ROM header
    lui     $t4, 0x1FFF
    ori     $t4, $t4, 0xFFFF
    and     $t6, $t3, $t4
    sw      $t6, 0x00($t0)          # PI_DRAM_ADDR (physical)
    lui     $t6, 0x1000
    ori     $t6, $t6, 0x1000
    sw      $t6, 0x04($t0)          # PI_CART_ADDR = ROM 0x1000
    lui     $t7, 0x000F
    ori     $t7, $t7, 0xFFFF
    sw      $t7, 0x0C($t0)          # PI_WR_LEN = 1 MiB - 1: start
8:  lw      $t1, 0x10($t0)
    andi    $t1, $t1, 3
    bnez    $t1, 8b
    nop
    ori     $t1, $zero, 2
    sw      $t1, 0x10($t0)          # clear the PI interrupt
    lui     $sp, 0x8000
    addu    $sp, $sp, $t5
    jr      $t3
    addiu   $sp, $sp, -16           # (delay slot) $sp = top of RDRAM - 16

    # The marker `n64rom info` looks for (ROM 0x40 + offset; never run).
ipl3_marker:
    .ascii  "Tic-Tac-Toe 64 IPL3"
ipl3_end:

    .set at
    .set reorder
    .set pop
