// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * tests/kmod/qemu/insn-count.c: a QEMU TCG plugin (plugin API 1, QEMU
 * 7.2) that counts the guest's executed instructions, user and kernel
 * apart, in windows that the guest opens and closes itself.
 *
 *   qemu-system-x86_64 -accel tcg,thread=single \
 *       -plugin insn-count.so,out=FILE[,per=tb] ...
 *
 * Every instruction gets an inline add (no helper call) to one of two
 * counters, chosen at translation time by its virtual address: the
 * upper canonical half (bit 63 set) is the kernel, the rest user
 * space.  per=tb adds a block's instruction count once per executed
 * block instead (a block never crosses a page, so never the halves):
 * cheaper, but a fault in the middle of a block counts the rest of it
 * (+0.05 % user instructions in an ls -lR).  The counters are global and the inline ops are not atomic,
 * and QEMU 7.2 shares translated blocks between vCPUs, so there is no
 * per-vCPU inline counter: the plugin needs one TCG thread for all
 * vCPUs (thread=single), which boot sets whenever it loads it.  The
 * count is then exact and covers every vCPU (the sum), which is what a
 * command that hands work to other threads (io_uring's io-wq) needs.
 *
 * Markers (tests/kmod/vm/insn-mark.c): `nopl DISP32(%rax)`, bytes
 * 0f 1f 80 d0 d1 50 4c, i.e. DISP32 = 0x4c50OODD with OO the operation
 * and DD its byte: 01 opens the window (the counters now are its zero),
 * 02 appends DD to the pending label, 03 closes the window and appends
 * "LABEL USER KERNEL\n" to FILE (the instructions since the open, the
 * label's own markers included).  The plugin recognises them at
 * translation time from the instruction bytes and calls back only for
 * them.  A fault restarts an instruction, which is then counted again
 * (as in QEMU's own insn plugin).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { IC_OPEN = 1, IC_LABEL_BYTE = 2, IC_CLOSE = 3 };

/* The counters the inline ops add to, and the window's zero. */
static uint64_t ic_user, ic_kernel;
static uint64_t ic_user0, ic_kernel0;
static bool ic_open;
static char ic_label[128];
static size_t ic_label_len;
static const char *ic_out;
static bool ic_per_tb;

/** ic_is_kernel: whether VADDR is in the x86-64 kernel's half. */
static bool ic_is_kernel(uint64_t vaddr)
{
	return vaddr >> 63;
}

/** ic_marker: the marker's operation and byte (as OP << 8 | BYTE), or -1. */
static int ic_marker(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 7 || b[0] != 0x0f || b[1] != 0x1f ||
	    b[2] != 0x80 || b[5] != 0x50 || b[6] != 0x4c)
		return -1;
	if (b[4] < IC_OPEN || b[4] > IC_CLOSE)
		return -1;
	return b[4] << 8 | b[3];
}

/** ic_close: append the window's line to the output file. */
static void ic_close(void)
{
	FILE *f;

	if (!ic_open) {
		qemu_plugin_outs("insn-count: close marker without an open window\n");
		return;
	}
	ic_label[ic_label_len] = '\0';
	f = fopen(ic_out, "a");
	if (!f) {
		qemu_plugin_outs("insn-count: cannot open the output file\n");
	} else {
		fprintf(f, "%s %" PRIu64 " %" PRIu64 "\n",
			ic_label_len ? ic_label : "-", ic_user - ic_user0,
			ic_kernel - ic_kernel0);
		fclose(f);
	}
	ic_open = false;
	ic_label_len = 0;
}

/** ic_on_marker: a marker ran; USERDATA is its OP << 8 | BYTE. */
static void ic_on_marker(unsigned int vcpu_index, void *userdata)
{
	int m = (int)(intptr_t)userdata;

	(void)vcpu_index;
	switch (m >> 8) {
	case IC_OPEN:
		ic_user0 = ic_user;
		ic_kernel0 = ic_kernel;
		ic_open = true;
		ic_label_len = 0;
		break;
	case IC_LABEL_BYTE:
		if (ic_label_len + 1 < sizeof(ic_label) && (m & 0xff) > ' ')
			ic_label[ic_label_len++] = (char)(m & 0xff);
		break;
	case IC_CLOSE:
		ic_close();
		break;
	}
}

/** ic_on_trans: a block was translated: its inline adds, its markers. */
static void ic_on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (ic_per_tb && n)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64,
			ic_is_kernel(qemu_plugin_tb_vaddr(tb)) ? &ic_kernel : &ic_user, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t *ctr = ic_is_kernel(qemu_plugin_insn_vaddr(insn)) ?
			&ic_kernel : &ic_user;
		int m = ic_marker(insn);

		if (!ic_per_tb)
			qemu_plugin_register_vcpu_insn_exec_inline(
				insn, QEMU_PLUGIN_INLINE_ADD_U64, ctr, 1);
		if (m >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, ic_on_marker, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(intptr_t)m);
	}
}

/** qemu_plugin_install: parse out=FILE and per=, hook translation. */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insn-count: x86_64 system emulation only (got %s)\n",
			info->target_name);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			ic_out = argv[i] + 4;
		} else if (!strcmp(argv[i], "per=tb")) {
			ic_per_tb = true;
		} else if (!strcmp(argv[i], "per=insn")) {
			ic_per_tb = false;
		} else {
			fprintf(stderr, "insn-count: unknown argument %s (want out=FILE, per=insn|tb)\n",
				argv[i]);
			return -1;
		}
	}
	if (!ic_out) {
		fprintf(stderr, "insn-count: out=FILE is required\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, ic_on_trans);
	return 0;
}
