import sys

from api.http.openapi import spec_yaml

sys.stdout.write(spec_yaml())
