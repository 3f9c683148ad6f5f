// SPDX-License-Identifier: GPL-2.0
/* A program's interpreter and shared libraries, read from its ELF (elfdeps.h). */
#include "elfdeps.h"
#include "warn.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the loader reads of one object. */
struct elf_info {
	char *interp, *soname;
	struct strvec needed, rpath, runpath;
	int has_runpath;
};

/* A mapped file and its size, for bounds checks. */
struct image {
	const unsigned char *p;
	size_t size;
};

static void info_release(struct elf_info *e)
{
	free(e->interp);
	free(e->soname);
	strvec_clear(&e->needed);
	strvec_clear(&e->rpath);
	strvec_clear(&e->runpath);
	memset(e, 0, sizeof(*e));
}

static int in_file(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* The NUL-terminated string at off, or NULL if it runs off the file. */
static const char *string_at(const struct image *im, uint64_t off)
{
	if (off >= im->size || !memchr(im->p + off, '\0', im->size - off))
		return NULL;
	return (const char *)im->p + off;
}

/*
 * Headers copied out of the file: a damaged one may put them anywhere,
 * aligned or not.
 */
static Elf64_Phdr phdr(const struct image *im, const Elf64_Ehdr *eh, unsigned i)
{
	Elf64_Phdr ph;

	memcpy(&ph, im->p + eh->e_phoff + (size_t)i * sizeof(ph), sizeof(ph));
	return ph;
}

static Elf64_Dyn dyn_entry(const struct image *im, const Elf64_Phdr *dyn, size_t i)
{
	Elf64_Dyn d;

	memcpy(&d, im->p + dyn->p_offset + i * sizeof(d), sizeof(d));
	return d;
}

/* A virtual address of a PT_LOAD segment as a file offset; -1 if none holds it. */
static int64_t vaddr_offset(const struct image *im, const Elf64_Ehdr *eh, uint64_t addr)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph = phdr(im, eh, i);

		if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz)
			return (int64_t)(addr - ph.p_vaddr + ph.p_offset);
	}
	return -1;
}

/* "a:b:c" of RPATH or RUNPATH onto sv. */
static void split_path(struct strvec *sv, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, ":");

		if (n) {
			char *dir = xstrndup(s, n);

			strvec_push(sv, dir);
			free(dir);
		}
		s += n + (s[n] == ':');
	}
}

static int read_dynamic(const struct image *im, const Elf64_Ehdr *eh, const Elf64_Phdr *dyn,
			struct elf_info *e, const char *path)
{
	size_t nr = dyn->p_filesz / sizeof(Elf64_Dyn);
	int64_t strtab = -1;
	Elf64_Dyn d;

	for (size_t i = 0; i < nr && (d = dyn_entry(im, dyn, i)).d_tag != DT_NULL; i++)
		if (d.d_tag == DT_STRTAB)
			strtab = vaddr_offset(im, eh, d.d_un.d_ptr);
	if (strtab < 0)
		return error("%s: a dynamic section without its string table", path);
	for (size_t i = 0; i < nr && (d = dyn_entry(im, dyn, i)).d_tag != DT_NULL; i++) {
		const char *s;

		if (d.d_tag != DT_NEEDED && d.d_tag != DT_RPATH && d.d_tag != DT_RUNPATH &&
		    d.d_tag != DT_SONAME)
			continue;
		s = d.d_un.d_val < im->size ? string_at(im, (uint64_t)strtab + d.d_un.d_val) : NULL;
		if (!s)
			return error("%s: a dynamic entry's string lies outside the file", path);
		if (d.d_tag == DT_NEEDED) {
			strvec_push(&e->needed, s);
		} else if (d.d_tag == DT_RPATH) {
			split_path(&e->rpath, s);
		} else if (d.d_tag == DT_RUNPATH) {
			split_path(&e->runpath, s);
			e->has_runpath = 1;
		} else if (!e->soname) {
			e->soname = xstrdup(s);
		}
	}
	return 0;
}

/*
 * The loader's view of im.  1 (quietly) if it is no 64-bit little-endian
 * ELF of m's machine, which the loader passes over in a library search
 * (read in the host's byte order: kbench's hosts, like its guests, are
 * little-endian);
 * -1 after an error naming path if it is one but damaged.
 */
static int parse(const struct image *im, const struct kb_machine *m, struct elf_info *e,
		 const char *path)
{
	Elf64_Ehdr eh;

	if (im->size < sizeof(eh))
		return 1;
	memcpy(&eh, im->p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != m->elf_machine)
		return 1;
	if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(im, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr)))
		return error("%s: its program headers lie outside the file", path);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph = phdr(im, &eh, i);

		if (!in_file(im, ph.p_offset, ph.p_filesz))
			return error("%s: a segment lies outside the file", path);
		if (ph.p_type == PT_INTERP && !e->interp) {
			if (!ph.p_filesz || im->p[ph.p_offset + ph.p_filesz - 1])
				return error("%s: its interpreter's name is not a string", path);
			e->interp = xstrdup((const char *)im->p + ph.p_offset);
		}
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph = phdr(im, &eh, i);

		if (ph.p_type == PT_DYNAMIC)
			return read_dynamic(im, &eh, &ph, e, path);
	}
	return 0;
}

/* read and parse path: 0, 1 (not m's ELF, or not a regular file), -1 (an error printed). */
static int read_elf(const char *path, const struct kb_machine *m, struct elf_info *e,
		    uint64_t *size)
{
	struct image im;
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 1 : error_errno("cannot read %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return 1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return error_errno("cannot read %s", path);
	im.p = map;
	im.size = (size_t)st.st_size;
	ret = parse(&im, m, e, path);
	munmap(map, im.size);
	if (ret)
		info_release(e);
	*size = (uint64_t)st.st_size;
	return ret;
}

/* path with "." and ".." taken out and slashes single: the name in the archive. */
static char *normalize(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = path; *p;) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(sb.buf ? sb.buf : "", '/');

			if (slash)
				strbuf_setlen(&sb, (size_t)(slash - sb.buf));
		} else if (n && !(n == 1 && *p == '.')) {
			strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
	}
	if (!sb.len)
		strbuf_addch(&sb, '/');
	return strbuf_detach(&sb, NULL);
}

static char *absolute(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cwd, *ret;

	if (path[0] != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd)
			die_errno("getcwd");
		strbuf_addf(&sb, "%s/", cwd);
		free(cwd);
	}
	strbuf_addstr(&sb, path);
	ret = normalize(sb.buf);
	strbuf_release(&sb);
	return ret;
}

/* dir/name with $ORIGIN (the directory of the object) expanded; NULL for other $TOKENs. */
static char *candidate(const char *dir, const char *origin, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *ret;

	for (const char *p = dir; *p; p++) {
		if (!strncmp(p, "$ORIGIN", 7) || !strncmp(p, "${ORIGIN}", 9)) {
			strbuf_addstr(&sb, origin);
			p += p[1] == '{' ? 8 : 6;
		} else if (*p == '$') {
			strbuf_release(&sb);
			return NULL;	/* $LIB, $PLATFORM: not what kbench's programs use */
		} else {
			strbuf_addch(&sb, *p);
		}
	}
	strbuf_addf(&sb, "/%s", name);
	ret = absolute(sb.buf);
	strbuf_release(&sb);
	return ret;
}

static int listed(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* The search of one object's libraries: its directories in the loader's order. */
struct search {
	const struct kb_machine *m;
	struct strvec *files;
	struct strvec names;		/* DT_NEEDED names found: the loader loads each once */
	struct strvec exe_rpath;	/* the executable's RPATH (when it has no RUNPATH) */
	char *interp_name;		/* the interpreter's soname: loaded already */
	uint64_t *bytes;
};

static void search_dirs(const struct search *s, const struct elf_info *e, struct strvec *dirs)
{
	static const char *const plain[] = { "/lib", "/usr/lib" };

	if (!e->has_runpath) {
		strvec_pushv(dirs, strvec_argv((struct strvec *)&e->rpath));
		strvec_pushv(dirs, strvec_argv((struct strvec *)&s->exe_rpath));
	}
	strvec_pushv(dirs, strvec_argv((struct strvec *)&e->runpath));
	/* Debian's system search path (ld.so --help): multiarch first. */
	strvec_pushf(dirs, "/lib/%s", s->m->triple);
	strvec_pushf(dirs, "/usr/lib/%s", s->m->triple);
	for (size_t i = 0; i < sizeof(plain) / sizeof(*plain); i++)
		strvec_push(dirs, plain[i]);
}

/* Where the loader finds name for the object at path; NULL after an error. */
static char *find_library(struct search *s, const struct elf_info *e, const char *path,
			  const char *name)
{
	struct strvec dirs = STRVEC_INIT;
	char *origin = xstrdup(path), *found = NULL;

	*strrchr(origin, '/') = '\0';
	if (strchr(name, '/')) {
		found = absolute(name);
	} else {
		search_dirs(s, e, &dirs);
		for (size_t i = 0; i < dirs.nr && !found; i++) {
			struct elf_info lib;
			uint64_t size;
			char *c = candidate(dirs.v[i], *origin ? origin : "/", name);
			int r = c ? read_elf(c, s->m, &lib, &size) : 1;

			if (!r)
				info_release(&lib);
			if (r < 0) {
				free(c);
				break;
			}
			if (!r)
				found = c;
			else
				free(c);
		}
	}
	if (!found && !strchr(name, '/'))
		error("%s needs the library %s, which is in none of the directories the %s "
		      "loader searches (RPATH, RUNPATH, /lib/%s, /usr/lib/%s, /lib, /usr/lib)",
		      path, name, s->m->name, s->m->triple, s->m->triple);
	strvec_clear(&dirs);
	free(origin);
	return found;
}

/* Add path to the files; its libraries are searched when its turn comes. */
static void add_file(struct search *s, const char *path, uint64_t size)
{
	strvec_push(s->files, path);
	*s->bytes += size;
}

/* The libraries of the object at path, each new one added. */
static int add_needed(struct search *s, const char *path)
{
	struct elf_info e, lib;
	uint64_t size;
	int ret = 0;

	if (read_elf(path, s->m, &e, &size))
		return error("%s: not a shared library for %s", path, s->m->name);
	for (size_t i = 0; i < e.needed.nr && !ret; i++) {
		const char *name = e.needed.v[i];
		char *found;

		if (listed(&s->names, name) || (s->interp_name && !strcmp(name, s->interp_name)))
			continue;
		found = find_library(s, &e, path, name);
		if (!found) {
			ret = -1;
			break;
		}
		strvec_push(&s->names, name);
		if (!listed(s->files, found)) {
			if (read_elf(found, s->m, &lib, &size)) {
				ret = error("%s (needed by %s) is not a shared library for %s",
					    found, path, s->m->name);
			} else {
				info_release(&lib);
				add_file(s, found, size);
			}
		}
		free(found);
	}
	info_release(&e);
	return ret;
}

/* The interpreter: the file itself and its soname (the libraries need not load it again). */
static int add_interp(struct search *s, const char *interp, const char *prog)
{
	struct elf_info e;
	uint64_t size;
	char *path = absolute(interp);
	int r = read_elf(path, s->m, &e, &size);

	if (r) {
		free(path);
		return r < 0 ? -1 : error("%s: its interpreter %s is not an ELF file for %s "
					  "on this machine", prog, interp, s->m->name);
	}
	s->interp_name = xstrdup(e.soname ? e.soname : strrchr(path, '/') + 1);
	add_file(s, path, size);
	info_release(&e);
	free(path);
	return 0;
}

int elf_closure(const struct kb_machine *m, const char *prog, struct strvec *files,
		uint64_t *bytes)
{
	struct search s = { m, files, STRVEC_INIT, STRVEC_INIT, NULL, bytes };
	struct elf_info e;
	uint64_t size;
	char *path = absolute(prog);
	size_t first = files->nr;
	int r = read_elf(path, m, &e, &size), ret = 0;

	if (r) {
		free(path);
		return r < 0 ? -1 : error("%s is not a 64-bit ELF program for %s", prog, m->name);
	}
	if (!e.has_runpath)
		strvec_pushv(&s.exe_rpath, strvec_argv(&e.rpath));
	add_file(&s, path, size);
	if (e.interp)
		ret = add_interp(&s, e.interp, prog);
	/* Breadth first, as the loader goes. */
	for (size_t i = first; i < files->nr && !ret; i++)
		if (i != first + 1 || !e.interp)
			ret = add_needed(&s, files->v[i]);
	info_release(&e);
	strvec_clear(&s.names);
	strvec_clear(&s.exe_rpath);
	free(s.interp_name);
	free(path);
	return ret;
}
