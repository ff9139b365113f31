"""Run the Insurgent Commander benchmark: python benchmarks/skirmish_bench.py [SECONDS]."""

import json
import sys

from djebel.skirmish.bench import run

if __name__ == "__main__":
    print(json.dumps(run(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=1))
