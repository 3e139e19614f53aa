from django.core.validators import RegexValidator
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

LOGIN_MIN_LENGTH = 3
LOGIN_MAX_LENGTH = 30


@deconstructible
class LoginNameValidator(RegexValidator):
    """Letters (Latin or Cyrillic), digits, "_" and "-": easy to read, type and link to."""

    regex = r"^[A-Za-zА-Яа-яЁё0-9_-]+\Z"
    message = _("Use only letters (Latin or Cyrillic), digits, “_” and “-”.")
    flags = 0


@deconstructible
class OneAlphabetValidator(RegexValidator):
    """Latin or Cyrillic letters, not both: a name mixing them is how look-alikes are made
    ("аuthA" with a Cyrillic "а").  Digits, "_" and "-" go with either."""

    # Refused when found: a letter of each alphabet, in either order.
    regex = r"[A-Za-z].*[А-Яа-яЁё]|[А-Яа-яЁё].*[A-Za-z]"
    inverse_match = True
    message = _("Use the letters of one alphabet: Latin or Cyrillic, not both.")
    code = "mixed_alphabets"
    flags = 0
