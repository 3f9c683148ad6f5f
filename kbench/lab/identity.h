/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lavacli's identity file (lavacli.yaml): where a LAVA lab is and the
 * token that speaks for us there.  The token is a password: it is never
 * printed, never put in a URL or an argv.
 */
#ifndef KBENCH_LAB_IDENTITY_H
#define KBENCH_LAB_IDENTITY_H

/*
 * uri has no credentials in it: lavacli also takes
 * "https://USER:TOKEN@host/RPC2", whose user and token fill username and
 * token (when those keys are absent) and are cut out of uri.  username
 * may be NULL (the REST API needs only the token).
 */
struct lava_identity {
	char *name, *uri, *username, *token;
};

/*
 * Identity name (NULL: "default") from file (NULL: $XDG_CONFIG_HOME/lavacli.yaml,
 * else ~/.config/lavacli.yaml).  The file is lavacli's YAML: top-level keys
 * are identity names, each a mapping with uri, username, token (others,
 * such as proxy or timeout, are ignored):
 *
 *   default:
 *     uri: https://lava.example.org/RPC2
 *     username: alice
 *     token: abc...
 *   other: {uri: 'https://lab.example.com/RPC2', token: "..."}
 *
 * What lavacli writes (PyYAML's block style) and writes by hand alike:
 * block and flow mappings, plain, single- and double-quoted scalars,
 * comments, "---".  Not anchors, tags or block scalars (| >).
 *
 * Refused, with an error naming the file and saying why (never the
 * token): a file readable or writable by group or others, an identity
 * that is missing, a missing uri or token, a line that cannot be parsed
 * (file:line).  0, or -1 with id all NULL.
 */
int lava_identity_load(struct lava_identity *id, const char *file, const char *name);
/* Free the strings (the token's bytes wiped first); id is left all NULL. */
void lava_identity_release(struct lava_identity *id);

#endif
