#!/usr/bin/env python3
"""Summarise CPU samples of a JFR file: self time by package (the first three name parts of the sampled frame),
top self frames and top inclusive frames (optionally filtered by a prefix).

usage: jfr-top.py FILE.jfr [prefix] [n]
"""
import collections, re, subprocess, sys

jfr, prefix, n = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else ""), int(sys.argv[3]) if len(sys.argv) > 3 else 25
out = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", jfr],
                     capture_output=True, text=True).stdout
self_c, incl_c, pkg_c, total = collections.Counter(), collections.Counter(), collections.Counter(), 0
for ev in out.split("jdk.ExecutionSample")[1:]:
    frames = re.findall(r"^\s+([\w$.<>/]+)\(", ev, re.M)
    if not frames:
        continue
    total += 1
    self_c[frames[0]] += 1
    pkg_c[".".join(frames[0].split(".")[:3])] += 1
    for f in set(frames):
        incl_c[f] += 1
print(f"{total} samples")
print("-- self, by package")
for f, c in pkg_c.most_common(n):
    print(f"{100*c/total:5.1f}%  {f}")
print("-- self")
for f, c in self_c.most_common(n):
    print(f"{100*c/total:5.1f}%  {f}")
print("-- inclusive" + (f" ({prefix}*)" if prefix else ""))
for f, c in [x for x in incl_c.most_common() if x[0].startswith(prefix)][:n]:
    print(f"{100*c/total:5.1f}%  {f}")
