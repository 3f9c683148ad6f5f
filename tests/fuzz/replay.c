// SPDX-License-Identifier: GPL-2.0
/*
 * A libFuzzer harness without libFuzzer: each file of the directories
 * given goes through LLVMFuzzerTestOneInput once.  Past crash inputs are
 * kept in tests/fuzz/regress/HARNESS/; the sanitizers of the build say
 * whether one crashes again.  Exit 0 after every input, 2 on a bad
 * argument or an unreadable or empty directory.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (size == cap) {
			cap = cap ? 2 * cap : 65536;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n);
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(data);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int replay_dir(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name), done = 0, bad = 0;

	if (n < 0) {
		perror(dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			if (replay_file(path))
				bad = 1;
			else
				printf("replayed %s\n", path), done++;
		}
		free(names[i]);
	}
	free(names);
	if (!done)
		fprintf(stderr, "%s: no input to replay\n", dir);
	return bad || !done ? -1 : 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_dir(argv[i]))
			ret = 2;
	return ret;
}
