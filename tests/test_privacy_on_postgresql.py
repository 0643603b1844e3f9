"""The privacy tests of test_privacy.py that open a store, on a PostgreSQL store: a file of
their own, so that the test runner's second worker takes them beside the first's
(conftest.BACKENDS). The rest of test_privacy.py does not depend on the store's backend."""

import inspect

import test_privacy

STORES = {"database", "new_database", "twins_app", "app", "client"}
globals().update({name: value for name, value in vars(test_privacy).items()
                  if not name.startswith("__") and (not name.startswith("test_") or STORES & set(inspect.signature(value).parameters))})
