/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Experiment only: call ni_syscall (hole 423) for N seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
int main(int argc, char **argv)
{
	time_t end = time(NULL) + atoi(argv[1]);
	long n = 0;
	while (time(NULL) < end) {
		for (int i = 0; i < 1000; i++)
			syscall(423, -1, 0, 0, 0, 0);
		n += 1000;
	}
	printf("nicall %d: %ld calls\n", getpid(), n);
	return 0;
}
