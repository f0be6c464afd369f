import sys

from callbench.cli.main import main

sys.exit(main())
