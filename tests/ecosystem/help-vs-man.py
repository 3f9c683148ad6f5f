#!/usr/bin/env python3
"""help-vs-man.py PROG HELP-OPTION MANPAGE: --help and the man page name
the same options and environment variables.

From the man page: every option and environment variable in a .TP tag
(the line after .TP), e.g. ".B \-\-ccd\-cc" or ".BR cc " (" CCD_CC )".
Each must appear in the --help text.  Conversely every option or
variable the --help text names must appear somewhere in the man page.
Options are compared by name: "--ccd-cc=CMD" and "\\-\\-ccd\\-cc =\\fICMD\\fR"
are both "--ccd-cc"."""
import re
import subprocess
import sys

OPT = re.compile(r'(?<![\w-])(--?[A-Za-z][A-Za-z0-9_-]*)')
# Environment variables: our own and the ones we compose with (help texts
# also name ELF constants such as SHN_COMMON, which are not variables).
ENV = re.compile(r'(?<![\w$])((?:CCD|LKD|ASMFIX|CCACHE|DISTCC|ICECC|UNCACHED|XDG)_[A-Z0-9_]*[A-Z0-9]'
                 r'|_DISTCC_SAFEGUARD|TMPDIR|SOURCE_DATE_EPOCH)\b')
# Placeholders such as --lkd-OPTION or --ccd-* are not options.
PLACEHOLDER = re.compile(r'^--.*-([A-Z]{2,}|)$')
PLAIN_WORDS = {'-', '--'}


def roff_to_text(line):
    line = re.sub(r'\\f(\[[^]]*\]|\(..|.)', '', line)    # font changes
    line = line.replace('\\-', '-').replace('\\(em', '--').replace('\\(en', '-')
    line = re.sub(r'\\[&|^/,%]', '', line)                # zero-width escapes
    line = line.replace('\\e', '\\').replace('\\ ', ' ').replace('\\~', ' ')
    if line.startswith('.'):
        line = re.sub(r'^\.\S+\s*', '', line)             # .B .BR .IR ...
        line = line.replace('"', '')
    return line


def opt_name(tok):
    return re.split(r'[=\[]', tok, 1)[0].rstrip('-.,')


def man_items(path):
    tags, envs, text = set(), set(), []
    section = ''
    lines = open(path, encoding='utf-8').read().splitlines()
    for i, raw in enumerate(lines):
        if raw.startswith('.\\"'):
            continue
        if raw.startswith('.SH'):
            section = roff_to_text(raw).strip().upper()
        t = roff_to_text(raw)
        text.append(t)
        if i > 0 and lines[i - 1].startswith('.TP'):
            for o in OPT.findall(t):
                if not PLACEHOLDER.match(opt_name(o)):
                    tags.add(opt_name(o))
            envs.update(ENV.findall(t))
    return tags, envs, '\n'.join(text)


def help_items(text):
    opts = {opt_name(o) for o in OPT.findall(text)} - PLAIN_WORDS
    opts = {o for o in opts if not PLACEHOLDER.match(o)}
    return opts, set(ENV.findall(text))


def mentions(text, name):
    return re.search(r'(?<![\w-])' + re.escape(name) + r'(?![\w-])', text) is not None


def main():
    prog, helpopt, man = sys.argv[1:4]
    r = subprocess.run([prog, helpopt], capture_output=True, text=True,
                       timeout=30)
    if r.returncode != 0:
        print(f'FAIL: {prog} {helpopt} exits {r.returncode}: {r.stderr.strip()[:200]}')
        return 1
    if r.stderr:
        print(f'FAIL: {prog} {helpopt} writes to stderr: {r.stderr.strip()[:200]}')
        return 1
    help_text = r.stdout
    if not help_text.strip():
        print(f'FAIL: {prog} {helpopt} prints nothing')
        return 1
    tags, envs, man_text = man_items(man)
    hopts, henvs = help_items(help_text)
    bad = 0
    if not tags:
        print(f'FAIL: {man}: no options found in .TP tags')
        bad += 1
    for o in sorted(tags):
        if not mentions(help_text, o):
            print(f'FAIL: {man} documents {o}, {prog} {helpopt} does not list it')
            bad += 1
    for e in sorted(envs):
        if not mentions(help_text, e):
            print(f'FAIL: {man} documents ${e}, {prog} {helpopt} does not list it')
            bad += 1
    for o in sorted(hopts):
        if not mentions(man_text, o):
            print(f'FAIL: {prog} {helpopt} lists {o}, {man} does not document it')
            bad += 1
    for e in sorted(henvs):
        if not mentions(man_text, e):
            print(f'FAIL: {prog} {helpopt} lists ${e}, {man} does not document it')
            bad += 1
    print(f'{prog}: man tags {len(tags)} options, {len(envs)} variables; '
          f'help names {len(hopts)} options, {len(henvs)} variables')
    if bad:
        print(f'{bad} mismatch(es)')
        return 1
    print('ok: --help and man page agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
