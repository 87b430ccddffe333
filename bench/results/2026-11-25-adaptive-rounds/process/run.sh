#!/usr/bin/env bash
# contains --from of 10 M absent lines and of 10 M present lines against a 10 M-key standard filter (12 MB),
# JAR_DIR/cli-before.jar (store-cli at a692753) and JAR_DIR/cli-adaptive.jar (the change) alternating,
# CPU (user + sys) and wall from /usr/bin/time into times.txt. Usage: JAR_DIR=DIR ./run.sh FIRST_ROUND LAST_ROUND
d=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$d/f.bloom" ]; then
  python3 "$d/keys.py" "$d"
  java -jar "${JAR_DIR:?directory of the jars}/cli-adaptive.jar" build "$d/f.bloom" --from "$d/present.txt" --expected 10000000 --fpp 0.01 --force
fi
for round in $(seq "${1:?first round}" "${2:?last round}"); do
  order="before adaptive"; [ $((round % 2)) = 0 ] && order="adaptive before"
  for keys in absent present; do
    for jar in $order; do
      /usr/bin/time -f "$round $keys $jar %U %S %e" -a -o "$d/times.txt" \
        java -jar "$JAR_DIR/cli-$jar.jar" contains "$d/f.bloom" --from "$d/$keys.txt" > /dev/null 2>> "$d/stderr.txt"
    done
  done
done
