import sys
from pathlib import Path

# Lets tests import their shared set-ups as `helpers`.
sys.path.insert(0, str(Path(__file__).parent))
