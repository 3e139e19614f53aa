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
