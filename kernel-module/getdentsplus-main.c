// SPDX-License-Identifier: GPL-2.0
/*
 * getdentsplus-main.c: module init/exit and the two ways in.
 *
 *  - The syscall.  A module cannot add a syscall, so a kprobe on the
 *    kernel's "not implemented" syscall (__x64_sys_ni_syscall, which the
 *    holes of the x86-64 table reach) redirects calls whose number is
 *    ours to gdp_sys_getdentsplus().  The number is the module parameter
 *    "nr" (a hole, 387..423), published read-only in
 *    /sys/module/getdentsplus/parameters/nr; it reads 0 when the kprobe
 *    could not be registered (or syscall=0): then only the ioctl works.
 *  - The ioctl GETDENTSPLUS_IOC on /dev/getdentsplus (misc device), which
 *    also works where kprobes are unavailable and which strace decodes;
 *    device=0 leaves it out (seccomp filters see only syscall numbers).
 *
 * Both call gdp_getdentsplus() (getdentsplus-walk.c).
 *
 * Unloading: a redirected call holds a module reference from the kprobe
 * pre-handler to the end of gdp_sys_getdentsplus(), so rmmod fails (busy)
 * while calls are in flight.  The few instructions after that final
 * module_put() are covered by synchronize_rcu_tasks() in gdp_exit(): a task
 * preempted there has not passed a voluntary context switch or user mode,
 * which it only does after returning from our code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "getdentsplus-internal.h"

/*
 * Numbers no kernel will ever assign on x86-64 or arm64: syscall_64.tbl
 * says "don't use numbers 387 through 423" (they stay unused so that new
 * syscalls get the same number on every architecture, from 424 on), and the
 * asm-generic table leaves 295..402 unassigned and 403..423 to 32-bit
 * architectures.  337..386 are holes today but x86-64 still adds its own
 * syscalls there (335 uretprobe in 6.11, 336 uprobe in 6.18): a module
 * parameter in that range could one day name a real syscall, which the
 * kprobe would never see while userspace called it with our arguments.
 * The module cannot check the slot itself (the table and kallsyms lookups
 * are not exported), hence the range.
 */
#define GDP_NR_MIN	387
#define GDP_NR_MAX	423

static unsigned int gdp_nr = 423;
module_param_named(nr, gdp_nr, uint, 0444);
MODULE_PARM_DESC(nr, "syscall number, a reserved table hole in 387..423 (default 423); reads 0 when the syscall is unavailable");

static bool gdp_want_syscall = true;
module_param_named(syscall, gdp_want_syscall, bool, 0444);
MODULE_PARM_DESC(syscall, "provide the syscall through a kprobe (default 1); 0: ioctl only");

/*
 * A seccomp filter that allows or denies the syscall by number knows
 * nothing of the ioctl on /dev/getdentsplus (mode 0666), which performs
 * the same operation: device=0 leaves the syscall as the only way in.
 */
static bool gdp_want_device = true;
module_param_named(device, gdp_want_device, bool, 0444);
MODULE_PARM_DESC(device, "provide /dev/getdentsplus (default 1); 0: syscall only (for seccomp filters that only know syscall numbers)");

/*
 * What user space reads instead of guessing from EINVAL (the uapi header:
 * GETDENTSPLUS_ABI_PATH, _FLAGS_PATH, _MASK_PATH).  Read-only constants.
 */
static int gdp_abi = GETDENTSPLUS_ABI_VERSION;
module_param_named(abi, gdp_abi, int, 0444);
MODULE_PARM_DESC(abi, "ABI version of the records and requests (read-only)");

static unsigned int gdp_flags_supported = GDP_FLAGS_ALL;
module_param_named(flags, gdp_flags_supported, hexint, 0444);
MODULE_PARM_DESC(flags, "request flags this module accepts (read-only)");

static unsigned int gdp_mask_supported = GDP_STATX_SUPPORTED;
module_param_named(statx_mask, gdp_mask_supported, hexint, 0444);
MODULE_PARM_DESC(statx_mask, "statx_mask bits this module accepts (read-only)");

/* ---- the syscall -------------------------------------------------- */

#if defined(CONFIG_KPROBES) && (defined(CONFIG_X86_64) || defined(CONFIG_ARM64))

#ifdef CONFIG_X86_64
#define GDP_NI_SYSCALL "__x64_sys_ni_syscall"
/* The probed function's argument: the user pt_regs. */
#define gdp_probe_arg(regs)	((regs)->di)
#define gdp_user_nr(u)		((u)->orig_ax)
#define gdp_user_arg(u, n)						\
	((n) == 0 ? (u)->di : (n) == 1 ? (u)->si : (n) == 2 ? (u)->dx :	\
	 (n) == 3 ? (u)->r10 : (u)->r8)
#else /* CONFIG_ARM64 */
#define GDP_NI_SYSCALL "__arm64_sys_ni_syscall"
#define gdp_probe_arg(regs)	((regs)->regs[0])
#define gdp_user_nr(u)		((unsigned long)(u)->syscallno)
#define gdp_user_arg(u, n)	((u)->regs[n])
#endif

static bool gdp_kprobe_registered;

/* Entered from gdp_kp_pre() in place of the ni_syscall function. */
static long gdp_sys_getdentsplus(const struct pt_regs *uregs)
{
	long ret;

	ret = gdp_getdentsplus((int)gdp_user_arg(uregs, 0),
			       (void __user *)gdp_user_arg(uregs, 1),
			       (size_t)gdp_user_arg(uregs, 2),
			       (u32)gdp_user_arg(uregs, 3),
			       (u32)gdp_user_arg(uregs, 4));
	/* Taken by gdp_kp_pre(); see the top of the file for the tail. */
	module_put(THIS_MODULE);
	return ret;
}

static int gdp_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	const struct pt_regs *uregs = (const void *)gdp_probe_arg(regs);

	/*
	 * Only a native syscall entry with our number.  The kernel dispatches
	 * on the low 32 bits of the number (do_syscall_64() takes an int):
	 * compare those, so that (1 << 32) | nr is ours exactly when the
	 * kernel sent it to the nr hole, as it does for every real syscall.
	 * The x32 bit (0x40000000) is in the low half: never ours.
	 */
	if (uregs != current_pt_regs() || in_compat_syscall() ||
	    (u32)gdp_user_nr(uregs) != gdp_nr)
		return 0;
	if (!try_module_get(THIS_MODULE))
		return 0;	/* unloading: let ni_syscall say ENOSYS */
	instruction_pointer_set(regs, (unsigned long)gdp_sys_getdentsplus);
	return 1;		/* regs changed: do not single-step */
}

/* A post_handler keeps the probe from being optimised into a jump, which
 * would ignore the changed instruction pointer. */
static void gdp_kp_post(struct kprobe *p, struct pt_regs *regs,
			unsigned long flags)
{
}

static struct kprobe gdp_kprobe = {
	.symbol_name = GDP_NI_SYSCALL,
	.pre_handler = gdp_kp_pre,
	.post_handler = gdp_kp_post,
};

static void gdp_syscall_init(void)
{
	int err = register_kprobe(&gdp_kprobe);

	if (err) {
		pr_warn("kprobe on %s failed (%d): no syscall, ioctl only\n",
			GDP_NI_SYSCALL, err);
		gdp_nr = 0;
		return;
	}
	gdp_kprobe_registered = true;
}

static void gdp_syscall_exit(void)
{
	if (gdp_kprobe_registered)
		unregister_kprobe(&gdp_kprobe);
}

#else /* no kprobes, or an architecture without the redirect */

static void gdp_syscall_init(void)
{
	pr_warn("no syscall on this kernel/architecture: ioctl only\n");
	gdp_nr = 0;
}

static void gdp_syscall_exit(void)
{
}

#endif

/* ---- the ioctl ---------------------------------------------------- */

static long gdp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct getdentsplus_args a;

	if (cmd != GETDENTSPLUS_IOC && cmd != GETDENTSPLUS_IOC_V1)
		return -ENOTTY;
	if (copy_from_user(&a, (void __user *)arg, sizeof(a)))
		return -EFAULT;
	if (a.__reserved)
		return -EINVAL;
	return gdp_getdentsplus(a.dirfd, u64_to_user_ptr(a.buf),
				(size_t)min_t(u64, a.size, GDP_SIZE_MAX),
				a.statx_mask, a.flags);
}

static const struct file_operations gdp_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = gdp_ioctl,
	.compat_ioctl = compat_ptr_ioctl,	/* same layout for 32-bit */
	.llseek = noop_llseek,
};

static struct miscdevice gdp_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "getdentsplus",
	.fops = &gdp_fops,
	.mode = 0666,
};

/* ---- module ------------------------------------------------------- */

/* The ABI is the same for 32- and 64-bit callers: keep it that way. */
static void __init gdp_check_abi(void)
{
	BUILD_BUG_ON(offsetof(struct getdentsplus_entry, stx) != 40);
	BUILD_BUG_ON(sizeof(struct getdentsplus_entry) != 296);
	BUILD_BUG_ON(GETDENTSPLUS_ENTRY_MIN != 304);
	BUILD_BUG_ON(sizeof(struct getdentsplus_args) != 32);
	BUILD_BUG_ON(offsetof(struct getdentsplus_args, buf) != 8);
	BUILD_BUG_ON(offsetof(struct getdentsplus_entry, flags) != 23);
	BUILD_BUG_ON(offsetof(struct getdentsplus_entry, name_off) != 36);
}

static int __init gdp_init(void)
{
	int err;

	gdp_check_abi();

	if (gdp_want_syscall && (gdp_nr < GDP_NR_MIN || gdp_nr > GDP_NR_MAX)) {
		pr_err("nr=%u is not in %u..%u\n", gdp_nr, GDP_NR_MIN,
		       GDP_NR_MAX);
		err = -EINVAL;
		goto err_out;
	}

	if (!gdp_want_syscall && !gdp_want_device) {
		pr_err("syscall=0 and device=0: nothing to provide\n");
		err = -EINVAL;
		goto err_out;
	}

	if (gdp_want_device) {
		err = misc_register(&gdp_misc);
		if (err) {
			pr_err("cannot register %s (%d)\n", GETDENTSPLUS_DEVICE,
			       err);
			goto err_out;
		}
	}

	if (gdp_want_syscall)
		gdp_syscall_init();
	else
		gdp_nr = 0;
	if (!gdp_want_device && !gdp_nr) {
		pr_err("device=0 and no syscall: nothing to provide\n");
		err = -ENODEV;
		goto err_out;
	}

	pr_info("ABI %d, %s, syscall %u%s\n", GETDENTSPLUS_ABI_VERSION,
		gdp_want_device ? GETDENTSPLUS_DEVICE : "no device", gdp_nr,
		gdp_nr ? "" : " (none)");
	return 0;

err_out:
	return err;
}

static void __exit gdp_exit(void)
{
	gdp_syscall_exit();
	if (gdp_want_device)
		misc_deregister(&gdp_misc);
	synchronize_rcu_tasks();
}

module_init(gdp_init);
module_exit(gdp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("getdentsplus: directory entries with stat data and attribute bits, in batches");
MODULE_AUTHOR("lsplus project");
MODULE_VERSION(GDP_VERSION);
