#!/usr/bin/env bash
# measure LABEL CMD...: wall, user, sys, the process's write_bytes (ru_oublock*512) and the device's sectors written
label=$1; shift
dev=$(basename "$(df --output=source /tmp | tail -1)")
s0=$(awk '{print $7}' /sys/block/$dev/stat)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
out=$(/usr/bin/time -f "TIME %e %U %S %O" "$@" 2>&1 >/dev/null | tail -3)
sync
s1=$(awk '{print $7}' /sys/block/$dev/stat)
t=$(echo "$out" | grep '^TIME')
echo "$label | $t | device_MiB $(( (s1 - s0) * 512 / 1048576 )) | load $load0 -> $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$out" | grep -v '^TIME' | sed 's/^/    /'
