/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model on kbench's side (model.c): where its plugin and machine
 * profiles are, QEMU's -plugin argument, and pairing the samples the
 * plugin writes (model/plugin.c) with the guest's rows.
 */
#ifndef KBENCH_COST_MODEL_H
#define KBENCH_COST_MODEL_H

#include "machine.h"
#include "model/profile.h"
#include "model/sim.h"
#include "result.h"
#include "strbuf.h"

struct kb_model {
	char *plugin;		/* the plugin's path */
	char *profile_path;
	struct kb_profile profile;
};

/* One START..END of the plugin's records. */
struct model_sample {
	double v[KB_NR_METRICS];	/* cycles, then the events, as counted */
	size_t row;			/* how many "row" records came before it */
};

struct model_records {
	char *profile;		/* the name the plugin said it ran */
	struct model_sample *v;
	size_t nr, alloc, rows;
};

/*
 * spec: NULL or "" (the machine's default profile), a profile name
 * (model/NAME.profile) or a file.  0, or -1 after an error naming what is
 * missing (the plugin: what to install) or what is wrong in the profile.
 */
int model_setup(struct kb_model *md, const char *spec, const struct kb_machine *m);
void model_release(struct kb_model *md);
/* The branch record's part of the plugin's arguments (results/branches.h). */
struct kb_branch_args {
	const char *plugin;	/* model_plugin()'s */
	const char *out;	/* where the plugin writes its samples */
	unsigned long long kernel_base, period;
};

/* The plugin's path, or NULL after an error saying what to install. */
char *model_plugin(void);
/*
 * -plugin PLUGIN,profile=FILE,out=RECORDS, and the branch record's
 * arguments with br; with br, md may be NULL: the record alone.
 */
void model_qemu_args(struct strvec *args, const struct kb_model *md, const char *records,
		     const struct kb_branch_args *br);
/* The same with whole=on: one more sample at exit, of the whole run. */
void model_qemu_args_whole(struct strvec *args, const struct kb_model *md, const char *records);

/* Read the plugin's records; -1 after an error naming path and line. */
int model_read(struct model_records *r, const char *path);
void model_records_release(struct model_records *r);

/*
 * Each row of res (in the guest's order) gets the samples of its "row"
 * record, divided by the operations of its KBENCH-OPS line (ops: "name
 * o1,o2,..." lines).  -1 after an error naming the kernel if they do not
 * pair up.
 */
int model_attach(struct kb_result *res, const struct strvec *ops,
		 const struct model_records *r, const char *kernel);

#endif
