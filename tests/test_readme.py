"""README stays true: every setting and management command is documented."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_every_environment_variable_is_in_the_readme():
    source = "".join((ROOT / "acehrag" / name).read_text() for name in ("config.py", "settings.py", "livedata_config.py"))
    names = set(re.findall(r'"((?:DJANGO|DATABASE|CELERY)_[A-Z_]+)"', source))
    names |= {"ACEH_RAG_" + suffix for suffix in re.findall(r'f"\{p\}([A-Z_]+)"', source)}
    names |= set(re.findall(r'"(ACEH_RAG_[A-Z_]+)"', source))
    assert names, "no variables found: the pattern is stale"
    missing = sorted(name for name in names if f"`{name}`" not in README)
    assert not missing, f"README lacks: {missing}"


def test_every_management_command_is_in_the_readme():
    commands = [p.stem for p in ROOT.glob("*/management/commands/*.py") if p.stem != "__init__"]
    assert commands
    missing = sorted(name for name in commands if f"manage.py {name}" not in README)
    assert not missing, f"README lacks: {missing}"
