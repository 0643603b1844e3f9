"""The privacy tests of test_privacy.py that open a store, on a PostgreSQL store: a file of
their own, so that the test runner's second worker takes them beside the first's
(conftest.BACKENDS). The rest of test_privacy.py does not depend on the store's backend."""

import inspect

import test_privacy

STORES = {"database", "new_database", "twins_app", "app", "client"}
# The noninterference properties search half as many random sequences here: the wide search
# runs on SQLite; here it checks that the PostgreSQL store adds no channel of its own.
EXAMPLES_ON_POSTGRESQL = max(2, test_privacy.EXAMPLES // 2)
globals().update({name: value for name, value in vars(test_privacy).items()
                  if not name.startswith("__") and name not in test_privacy.PROPERTIES
                  and (not name.startswith("test_") or STORES & set(inspect.signature(value).parameters))})
globals().update({name: make(EXAMPLES_ON_POSTGRESQL) for name, make in test_privacy.PROPERTIES.items()})
