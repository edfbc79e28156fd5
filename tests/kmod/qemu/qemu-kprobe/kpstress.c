// SPDX-License-Identifier: GPL-2.0
/* Experiment only: arm/disarm a kprobe on ni_syscall many times and count
 * int3 hits that arrive after the disarm was complete (stale code). */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/atomic.h>

static int iters = 500;
module_param(iters, int, 0444);
static int unreg;	/* 1: register/unregister instead of enable/disable */
module_param(unreg, int, 0444);

static atomic_t hits, stale, stalewin, healed;
static bool disarmed, disarmed2;

static int kps_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	if (READ_ONCE(disarmed))
		atomic_inc(&stale);
	if (READ_ONCE(disarmed2))
		atomic_inc(&stalewin);
	return 0;
}

static void kps_post(struct kprobe *p, struct pt_regs *regs, unsigned long f)
{
}

static struct kprobe kp = {
	.symbol_name = "__x64_sys_ni_syscall",
	.pre_handler = kps_pre,
	.post_handler = kps_post,
};

static int __init kps_init(void)
{
	int i, err;

	err = register_kprobe(&kp);
	if (err)
		return err;
	for (i = 0; i < iters; i++) {
		msleep(2);
		if (unreg == 3) {
			int t;

			disable_kprobe(&kp);
			for (t = 0; t < 10; t++) {
				synchronize_rcu();
				atomic_set(&stalewin, 0);
				WRITE_ONCE(disarmed2, true);
				msleep(5);
				WRITE_ONCE(disarmed2, false);
				if (!atomic_read(&stalewin))
					break;
				atomic_inc(&healed);
				enable_kprobe(&kp);
				disable_kprobe(&kp);
			}
		}
		if (unreg == 2) {	/* disable, let it settle, then unregister */
			disable_kprobe(&kp);
			synchronize_rcu();
			msleep(2);
		}
		if (unreg) {
			unregister_kprobe(&kp);
			memset(&kp, 0, sizeof(kp));
			kp.symbol_name = "__x64_sys_ni_syscall";
			kp.pre_handler = kps_pre;
			kp.post_handler = kps_post;
		} else {
			disable_kprobe(&kp);
		}
		WRITE_ONCE(disarmed, true);
		msleep(2);
		WRITE_ONCE(disarmed, false);
		if (unreg)
			err = register_kprobe(&kp);
		else
			err = enable_kprobe(&kp);
		if (err)
			break;
		if (i % 50 == 0)
			pr_info("kpstress: %d cycles, %d hits, %d after disarm, %d healed\n",
				i, atomic_read(&hits), atomic_read(&stale), atomic_read(&healed));
	}
	pr_info("kpstress: done %d cycles, %d hits, %d after disarm (err %d)\n",
		i, atomic_read(&hits), atomic_read(&stale), err);
	unregister_kprobe(&kp);
	return -EAGAIN;	/* never stays loaded */
}
module_init(kps_init);
MODULE_LICENSE("GPL");
