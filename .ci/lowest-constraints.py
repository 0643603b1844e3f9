"""Print a pip constraints file that pins every dependency of pyproject.toml to its lower bound.

Used by `.ci/lowest` so the lower bounds we publish are the versions we test.
"""

import re
import sys
import tomllib
from pathlib import Path

project = tomllib.loads(Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml").read_text())["project"]
requirements = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
for requirement in requirements:
    match = re.fullmatch(r"([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?>=([0-9][0-9A-Za-z.]*)", requirement.replace(" ", ""))
    if match is None:
        sys.exit(f"no lower bound in {requirement!r}: every dependency needs one")
    print(f"{match[1]}=={match[2]}")
