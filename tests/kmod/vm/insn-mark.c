// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * tests/kmod/vm/insn-mark.c: the guest side of the rig's instruction
 * counter (tests/kmod/qemu/insn-count.c, loaded by boot when
 * LSPLUS_VM_INSN=FILE is set): executes its marker instructions.
 *
 *   insn-mark start              open a window
 *   insn-mark stop LABEL         close it: the plugin appends
 *                                "LABEL USER KERNEL" to FILE on the host
 *   insn-mark run LABEL CMD...   open, run CMD (fork, exec, wait), close;
 *                                exits with CMD's status
 *   insn-mark loop N LABEL       a window around N iterations of a user
 *                                loop of 3 instructions (add, dec, jnz)
 *   insn-mark getpid N LABEL     a window around N getpid() calls (raw
 *                                syscall; 4 user instructions each)
 *
 * loop and getpid are the calibration: their user counts are known (3N,
 * 4N plus a constant), getpid's kernel count is N times the kernel's
 * getpid path.  Without the plugin the markers are NOPs and every form
 * just runs.  A marker is `nopl 0x4c50OODD(%rax)` (insn-count.c says
 * what OO and DD mean); a label is one marker per byte, so the sequence
 * is written into an executable page and called.  x86-64 only.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { IM_OPEN = 1, IM_LABEL_BYTE = 2, IM_CLOSE = 3 };

static uint8_t *im_page;
static size_t im_page_size = 4096;

/** im_put: write the marker OP, BYTE at P; return the next position. */
static uint8_t *im_put(uint8_t *p, int op, int byte)
{
	static const uint8_t head[3] = { 0x0f, 0x1f, 0x80 };

	memcpy(p, head, sizeof(head));
	p[3] = (uint8_t)byte;
	p[4] = (uint8_t)op;
	p[5] = 0x50;
	p[6] = 0x4c;
	return p + 7;
}

/** im_exec: run the markers of OP (with LABEL for a close) from a page. */
static void im_exec(int op, const char *label)
{
	uint8_t *p;
	size_t i, n = label ? strlen(label) : 0;

	if (n > 120) {
		fprintf(stderr, "insn-mark: label longer than 120 bytes\n");
		exit(2);
	}
	if (!im_page) {
		im_page = mmap(NULL, im_page_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (im_page == MAP_FAILED) {
			perror("insn-mark: mmap");
			exit(2);
		}
	} else if (mprotect(im_page, im_page_size, PROT_READ | PROT_WRITE)) {
		perror("insn-mark: mprotect");
		exit(2);
	}
	p = im_page;
	for (i = 0; i < n; i++)
		p = im_put(p, IM_LABEL_BYTE, (unsigned char)label[i]);
	p = im_put(p, op, 0);
	*p = 0xc3; /* ret */
	if (mprotect(im_page, im_page_size, PROT_READ | PROT_EXEC)) {
		perror("insn-mark: mprotect");
		exit(2);
	}
	((void (*)(void))im_page)();
}

/**
 * im_parent_asleep: wait (up to 2 s, 1 ms at a time) until the parent
 * (the shell that started us) sleeps, so that none of its user
 * instructions fall into the window.
 *
 * The counter counts every vCPU: a shell that forks us goes on running
 * on the other vCPU until it calls wait(), and under a loaded host that
 * can be late enough to overlap our window (a CI run once saw a
 * calibration loop's user count off by the parent's tail).  /proc's
 * state letter after the last ')' of the stat line says whether it is
 * running ('R'); anything else is asleep or stopped.  Returns silently
 * when /proc cannot say.
 */
static void im_parent_asleep(void)
{
	char path[64], buf[512];
	struct timespec ms = { 0, 1000000 };
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)getppid());
	for (i = 0; i < 2000; i++) {
		FILE *f = fopen(path, "r");
		size_t n;
		char *rp;

		if (!f)
			return;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		rp = strrchr(buf, ')');
		if (!rp || rp[1] != ' ' || rp[2] != 'R')
			return;
		nanosleep(&ms, NULL);
	}
}

/** im_count: parse N (at least 1) or exit. */
static unsigned long im_count(const char *s)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n == 0) {
		fprintf(stderr, "insn-mark: bad count %s\n", s);
		exit(2);
	}
	return n;
}

/** im_loop: N iterations of add, dec, jnz. */
static void im_loop(unsigned long n)
{
	unsigned long x = 0;

	asm volatile("1: add $1, %1\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "+c"(n), "+r"(x) : : "cc");
}

/** im_getpid: N raw getpid() calls: mov, syscall, dec, jnz. */
static void im_getpid(unsigned long n)
{
	asm volatile("1: mov $39, %%eax\n\t"
		     "syscall\n\t"
		     "dec %0\n\t"
		     "jnz 1b"
		     : "+D"(n) : : "rax", "rcx", "r11", "cc", "memory");
}

/** im_run: open, run ARGV, close with LABEL; CMD's exit status. */
static int im_run(const char *label, char **argv)
{
	int st;
	pid_t pid;

	im_parent_asleep();
	im_exec(IM_OPEN, NULL);
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "insn-mark: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		perror("insn-mark");
		return 126;
	}
	im_exec(IM_CLOSE, label);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/** im_usage: print how to call and exit 2. */
static void im_usage(void)
{
	fputs("usage: insn-mark start | stop LABEL | run LABEL CMD... |"
	      " loop N LABEL | getpid N LABEL\n", stderr);
	exit(2);
}

/** main: dispatch the subcommand. */
int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "start") && argc == 2) {
		im_exec(IM_OPEN, NULL);
	} else if (!strcmp(cmd, "stop") && argc == 3) {
		im_exec(IM_CLOSE, argv[2]);
	} else if (!strcmp(cmd, "run") && argc >= 4) {
		return im_run(argv[2], argv + 3);
	} else if (!strcmp(cmd, "loop") && argc == 4) {
		unsigned long n = im_count(argv[2]);

		im_parent_asleep();
		im_exec(IM_OPEN, NULL);
		im_loop(n);
		im_exec(IM_CLOSE, argv[3]);
	} else if (!strcmp(cmd, "getpid") && argc == 4) {
		unsigned long n = im_count(argv[2]);

		im_parent_asleep();
		im_exec(IM_OPEN, NULL);
		im_getpid(n);
		im_exec(IM_CLOSE, argv[3]);
	} else {
		im_usage();
	}
	return 0;
}
