// SPDX-License-Identifier: GPL-2.0-only
/*
 * Is the host a virtual machine, which hypervisor, is the CPU emulated?
 * Evidence: the "hypervisor" CPU flag in cpuinfo, the hypervisor signature
 * at CPUID leaf 0x40000000 and the DMI system vendor and product.  Each
 * claim names its evidence in virt_evidence; without evidence the fields
 * stay unknown.
 */
#include "fsops/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/xalloc.h"
#include "fsops/sysroot.h"

static const struct {
	const char *sig;	/* CPUID 0x40000000 ebx:ecx:edx */
	const char *name;
} signatures[] = {
	{ "KVMKVMKVM", "KVM" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "Microsoft Hv", "Microsoft Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "bhyve bhyve ", "bhyve" },
	{ " lrpepyh  vr", "Parallels" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "QNXQVMBSQG", "QNX" },
	{ "Linux KVM Hv", "KVM (Hyper-V enlightenments)" },
};

/* DMI sys_vendor (or product) substrings that only virtual machines show */
static const struct {
	const char *vendor;
	const char *name;
} dmi_vms[] = {
	{ "QEMU", "QEMU" },
	{ "KVM", "KVM" },
	{ "VMware", "VMware" },
	{ "innotek", "VirtualBox" },
	{ "Xen", "Xen" },
	{ "Amazon EC2", "Amazon EC2" },
	{ "Google", "Google Compute Engine" },
	{ "Parallels", "Parallels" },
	{ "bhyve", "bhyve" },
	{ "OpenStack", "OpenStack" },
};

char *host_cpuid_vendor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return NULL;	/* no hypervisor bit: leaf not defined */
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return sig[0] ? xstrdup(sig) : NULL;
#else
	return NULL;
#endif
}

static void evidence(struct host_info *h, const char *fmt, const char *arg)
{
	char *e = xasprintf(fmt, arg), *j;

	if (h->virt_evidence) {
		j = xasprintf("%s; %s", h->virt_evidence, e);
		free(h->virt_evidence);
		free(e);
		e = j;
	}
	h->virt_evidence = e;
}

static char *dmi(const char *name)
{
	char *path = xasprintf("%s/class/dmi/id/%s", sysfs_root(), name);
	char *v = sysfs_read_str(path);

	free(path);
	return v;
}

static int has_flag(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag)) != NULL) {
		if ((p == flags || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
		p += n;
	}
	return 0;
}

void host_virt_detect(struct host_info *h, const char *cpuid_vendor)
{
	char *flags = procfs_cpuinfo("flags");
	char *model = procfs_cpuinfo("model name");
	size_t i;
	int kvm_sig = 0;

	h->vm = -1;
	if (flags) {
		if (has_flag(flags, "hypervisor")) {
			h->vm = 1;
			evidence(h, "cpu flag '%s'", "hypervisor");
		} else {
			h->vm = 0;
			evidence(h, "no '%s' cpu flag", "hypervisor");
		}
	}
	if (cpuid_vendor && *cpuid_vendor) {
		const char *name = NULL;

		for (i = 0; i < sizeof(signatures) / sizeof(signatures[0]);
		     i++)
			if (!strcmp(cpuid_vendor, signatures[i].sig))
				name = signatures[i].name;
		h->vm = 1;
		h->hypervisor = xstrdup(name ? name : cpuid_vendor);
		evidence(h, "cpuid 0x40000000 signature '%s'", cpuid_vendor);
		kvm_sig = !strncmp(cpuid_vendor, "KVMKVMKVM", 9) ||
			  !strcmp(cpuid_vendor, "Linux KVM Hv");
		if (!strcmp(cpuid_vendor, "TCGTCGTCGTCG"))
			h->emulation = xstrdup("tcg");
	}
	h->dmi_vendor = dmi("sys_vendor");
	h->dmi_product = dmi("product_name");
	for (i = 0; i < sizeof(dmi_vms) / sizeof(dmi_vms[0]); i++) {
		const char *v = dmi_vms[i].vendor;

		if ((h->dmi_vendor && strstr(h->dmi_vendor, v)) ||
		    (h->dmi_product && strstr(h->dmi_product, v))) {
			h->vm = 1;
			if (!h->hypervisor)
				h->hypervisor = xstrdup(dmi_vms[i].name);
			evidence(h, "dmi names '%s'", v);
			break;
		}
	}
	if (h->dmi_product && strstr(h->dmi_product, "Virtual Machine") &&
	    h->vm != 1) {
		h->vm = 1;
		evidence(h, "dmi product '%s'", h->dmi_product);
	}
	/* QEMU's own CPU models under a hypervisor bit but with no KVM
	 * signature: the instructions are translated by TCG */
	if (!h->emulation && h->vm == 1 && !kvm_sig && !cpuid_vendor &&
	    model && (strstr(model, "QEMU Virtual CPU") ||
		      strstr(model, "QEMU TCG CPU"))) {
		h->emulation = xstrdup("tcg");
		evidence(h, "cpu model '%s' without a KVM cpuid signature",
			 model);
	}
	free(flags);
	free(model);
}
