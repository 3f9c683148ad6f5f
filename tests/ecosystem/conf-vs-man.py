#!/usr/bin/env python3
"""conf-vs-man.py CONFIG_C CCD_CONF_5 EXAMPLE: the one configuration
format is documented completely.  Every key of lib/settings.c's tables has
an entry in ccd.conf(5) tagged "key (ENV)", naming its choices and its
default, and appears (commented out or not) in the example ccd.conf;
ccd.conf(5) and the example name no key the table lacks.  The example's
[profile NAME] section shows only keys ccd.conf(5)'s PROFILES section
documents."""
import re
import sys

sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, __import__('os').path.dirname(__file__))
from importlib import import_module
roff_to_text = import_module('help-vs-man').roff_to_text

ENTRY = re.compile(r'\[(?:CCD|LKD)_KEY_\w+\]\s*=\s*\{\s*"(\w+)",\s*"(\w+)",\s*(\w+),\s*'
                   r'(NULL|"[^"]*"),\s*(NULL|"[^"]*")', re.S)


def table(path):
    keys = {}
    for name, env, typ, choices, default in ENTRY.findall(open(path).read()):
        keys[name] = (env, typ, choices.strip('"') if choices != 'NULL' else None,
                      default.strip('"') if default != 'NULL' else None)
    return keys


def man_entries(path):
    """key -> (env, paragraph text) for the .TP entries of the KEYS section."""
    lines = open(path, encoding='utf-8').read().splitlines()
    out, cur, section = {}, None, ''
    for i, raw in enumerate(lines):
        if raw.startswith('.SH'):
            section = roff_to_text(raw).strip().upper()
            cur = None
            continue
        if section != 'KEYS':
            continue
        if raw.startswith('.TP'):
            cur = None
            continue
        t = roff_to_text(raw)
        if i > 0 and lines[i - 1].startswith('.TP'):
            m = re.match(r'\s*(\w+)\s*\(\s*(\w+)\s*\)', t)
            if m:
                cur = m.group(1)
                out[cur] = [m.group(2), '']
            continue
        if cur:
            out[cur][1] += ' ' + t
    return out


def profile_keys(path):
    """The keys the PROFILES section of ccd.conf(5) documents (.TP entries)."""
    lines = open(path, encoding='utf-8').read().splitlines()
    keys, section = set(), ''
    for i, raw in enumerate(lines):
        if raw.startswith('.SH'):
            section = roff_to_text(raw).strip().upper()
        elif section == 'PROFILES' and raw.startswith('.TP') and i + 1 < len(lines):
            m = re.match(r'\s*(\w+)\s*=', roff_to_text(lines[i + 1]))
            if m:
                keys.add(m.group(1))
    return keys


def main():
    keys = table(sys.argv[1])
    man = man_entries(sys.argv[2])
    parts = re.split(r'^#?\[profile ', open(sys.argv[3]).read(), maxsplit=1, flags=re.M)
    example, ex_profile = parts[0], parts[1] if len(parts) > 1 else ''
    ex_keys = set(re.findall(r'^#?\s*(\w+)\s*=', example, re.M))
    ex_pkeys = set(re.findall(r'^#?\s*(\w+)\s*=', ex_profile, re.M))
    man_pkeys = profile_keys(sys.argv[2])
    bad = 0

    def fail(msg):
        nonlocal bad
        print('FAIL:', msg)
        bad += 1
    if len(keys) < 5:
        fail(f'{sys.argv[1]}: could not read the key table ({len(keys)} keys)')
    for k, (env, typ, choices, default) in sorted(keys.items()):
        if k not in man:
            fail(f'ccd.conf(5) has no entry "{k} ({env})"')
        else:
            menv, text = man[k]
            if menv != env:
                fail(f'ccd.conf(5): {k} is tagged ({menv}), the table says {env}')
            for c in (choices or '').split('|'):
                if c and not c.isdigit() and not re.search(r'\b' + re.escape(c) + r'\b', text):
                    fail(f'ccd.conf(5): {k} does not name its choice "{c}"')
            if default and typ != 'CFGT_BOOL' and \
                    not re.search(r'Default:\s*' + re.escape(default), text):
                fail(f'ccd.conf(5): {k} does not say "Default: {default}"')
        if k not in ex_keys:
            fail(f'example ccd.conf does not show key "{k}"')
    for k in sorted(set(man) - set(keys)):
        fail(f'ccd.conf(5) documents "{k}", which lib/settings.c does not know')
    for k in sorted(ex_keys - set(keys)):
        fail(f'example ccd.conf shows "{k}", which lib/settings.c does not know')
    if len(man_pkeys) < 5:
        fail(f'ccd.conf(5): PROFILES documents {len(man_pkeys)} keys')
    for k in sorted(ex_pkeys - man_pkeys):
        fail(f'example [profile] shows "{k}", which ccd.conf(5) PROFILES does not document')
    print(f'{len(keys)} keys in the table, {len(man)} in ccd.conf(5), {len(ex_keys)} in the example; '
          f'{len(man_pkeys)} profile keys documented, {len(ex_pkeys)} in the example')
    if bad:
        return 1
    print('ok: ccd.conf(5) and the example cover the key table')
    return 0


if __name__ == '__main__':
    sys.exit(main())
