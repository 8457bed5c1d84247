import sys

from api.openapi import spec_yaml

sys.stdout.write(spec_yaml())
