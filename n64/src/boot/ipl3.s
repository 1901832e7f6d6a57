# Tic-Tac-Toe 64 IPL3: the boot code stored at ROM 0x40..0x1000.
#
# The console's boot ROM (IPL2) copies ROM 0x40..0x1000 to SP DMEM and jumps
# to 0xA4000040 with s3 = ROM type, s4 = TV type (0 PAL, 1 NTSC, 2 MPAL),
# s5 = reset type, s6 = CIC seed, s7 = OS version. This IPL3:
#   1. disables interrupts and invalidates every cache line,
#   2. stores the boot information games expect at 0x80000300..0x8000031C,
#   3. measures RDRAM (4 or 8 MiB) and stores the size at 0x80000318,
#   4. DMAs 1 MiB from ROM 0x1000 to the boot address in the header (0x08)
#      and jumps there.
# It does NOT initialise RDRAM (RI/RDRAM registers) and is not signed for a
# CIC: it runs in emulators (mupen64plus, ares); a real console needs a
# signed IPL3, see n64/README.md (n64rom pack --ipl3 FILE).
#
# Position independent (runs from SP DMEM at 0xA4000040), no relocations:
# it lives in a non-allocated ELF section that n64rom copies to ROM 0x40.

    .section .ipl3, "", @progbits
    .set push
    .set mips3                      # `cache` (the program is built for MIPS II)
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

    # 2. Boot information (uncached stores straight to RDRAM).
    lui     $t0, 0xA000
    sw      $s4, 0x300($t0)         # TV type
    sw      $s3, 0x304($t0)         # ROM type (0 = cartridge)
    lui     $t1, 0xB000
    sw      $t1, 0x308($t0)         # ROM base
    sw      $s5, 0x30C($t0)         # reset type (0 = cold, 1 = NMI)
    sw      $s6, 0x310($t0)         # CIC seed
    sw      $s7, 0x314($t0)         # OS version

    # 3. Memory size: 8 MiB if a pattern written at 4 MiB reads back and is
    #    not an alias of address 0, else 4 MiB.
    lui     $t2, 0xA040
    lui     $t3, 0x5AA5
    ori     $t3, $t3, 0xC33C
    sw      $t3, 0($t2)
    sw      $zero, 0($t0)
    lw      $t4, 0($t2)
    bne     $t4, $t3, 3f
    lui     $t5, 0x0040             # (delay slot) 4 MiB
    lui     $t5, 0x0080             # 8 MiB
3:  sw      $t5, 0x318($t0)

    # 4. Wait until the PI is idle, then copy ROM 0x1000 (1 MiB) to the
    #    boot address and jump to it.
    lui     $t0, 0xA460             # PI registers
4:  lw      $t1, 0x10($t0)          # PI_STATUS: bits 0-1 busy
    andi    $t1, $t1, 3
    bnez    $t1, 4b
    nop
    lui     $t2, 0xB000
    lw      $t3, 0x08($t2)          # boot address from the ROM header
    lui     $t4, 0x1FFF
    ori     $t4, $t4, 0xFFFF
    and     $t5, $t3, $t4
    sw      $t5, 0x00($t0)          # PI_DRAM_ADDR (physical)
    lui     $t6, 0x1000
    ori     $t6, $t6, 0x1000
    sw      $t6, 0x04($t0)          # PI_CART_ADDR = ROM 0x1000
    lui     $t7, 0x000F
    ori     $t7, $t7, 0xFFFF
    sw      $t7, 0x0C($t0)          # PI_WR_LEN = 1 MiB - 1: start
5:  lw      $t1, 0x10($t0)
    andi    $t1, $t1, 3
    bnez    $t1, 5b
    nop
    ori     $t1, $zero, 2
    sw      $t1, 0x10($t0)          # clear the PI interrupt
    jr      $t3
    nop

    .set at
    .set reorder
    .set pop
