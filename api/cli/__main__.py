"""``python -m api.cli``: the ``rulehouse`` command."""

import sys

from api.cli import main

sys.exit(main())
