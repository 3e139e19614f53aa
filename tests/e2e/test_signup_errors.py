"""Signing up with a password the site refuses, in a real browser at phone and desktop
sizes: what is wrong with the password is said under "Пароль", where it was typed, and a
mismatch under "Подтверждение пароля"."""

from __future__ import annotations

import pytest

from .conftest import WIDE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]

# The name of the field each error list belongs to (the input in the same field's box).
ERRORS_BY_FIELD = """() => [...document.querySelectorAll("main form .errorlist")].map(list => {
  const input = list.parentElement.querySelector("input:not([type=hidden])");
  return [input ? input.name : null, list.innerText.trim()];
})"""


def sign_up_with(page, password1: str, password2: str) -> list:
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', "masha")
    page.fill('input[name="password1"]', password1)
    page.fill('input[name="password2"]', password2)
    page.locator("main form.form").locator('button[type="submit"]').click()
    page.locator("main form .errorlist").first.wait_for()
    return page.evaluate(ERRORS_BY_FIELD)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_password_errors_are_said_under_the_password(people, tmp_path, phone):
    from accounts.models import User

    person = people("masha", phone=phone, viewport=None if phone else WIDE)
    page = person.page
    errors = sign_up_with(page, "12345", "12345")
    assert [field for field, _text in errors] == ["password1"], errors
    assert "короткий" in errors[0][1]
    page.screenshot(path=str(tmp_path / f"signup-short-{'phone' if phone else 'desktop'}.png"),
                    full_page=True)
    # Two passwords that differ: said once, under the confirmation.
    errors = sign_up_with(page, "Kozel-e2e-pass-42", "Kozel-e2e-pass-43")
    assert [field for field, _text in errors] == ["password2"], errors
    assert not User.objects.exists()
    assert person.errors == []
