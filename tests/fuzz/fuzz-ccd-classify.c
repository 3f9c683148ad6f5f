// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the input is a response file.  It is split like an
 * @file, classified, and for handled commands the as argv is derived, so
 * every parser ccd runs on untrusted argv gets exercised.
 */
#include "assemble.h"
#include "classify.h"
#include "profiles.h"
#include "respfile.h"
#include "strbuf.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strvec args = STRVEC_INIT, as = STRVEC_INIT;
	struct ccd_cmd cmd;

	respfile_split(&args, (const char *)data, size);
	classify(&cmd, (int)args.nr, strvec_argv(&args));
	if (cmd.mode == MODE_HANDLE) {
		for (size_t i = 0; i < cmd.nr_inputs; i++) {
			char *out = default_output(&cmd, &cmd.inputs[i]);
			char *dwo = dwo_name(&cmd, &cmd.inputs[i]);

			free(out);
			free(dwo);
		}
		assemble_args(&as, profile_by_name("gcc"), &cmd, NULL, "o.o", "t.s");
		assemble_args(&as, profile_by_name("clang"), &cmd, NULL, "o.o", "t.s");
		assemble_args(&as, profile_by_name("pcc"), &cmd, NULL, "o.o", "t.s");
	}
	profile_translate(profile_by_name("icc"), &as, &cmd);
	ccd_cmd_release(&cmd);
	strvec_clear(&args);
	strvec_clear(&as);
	return 0;
}
