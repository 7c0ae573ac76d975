"""A model field for die codes: stored as total pips (so codes sort and compare in SQL),
read back as ``rules.DieCode`` and shown as ``4D+2``."""

from functools import lru_cache

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from rules import DieCode, DieCodeError


def parse_sheet_code(value) -> DieCode:
    """A die code as written on a sheet: 0 to 2 pips, no negative dice. Raises ValidationError
    with a message that says how to write it."""
    if isinstance(value, DieCode):
        code = value
    else:
        try:
            code = DieCode.parse(str(value))
        except DieCodeError as exc:
            raise ValidationError(str(exc)) from None
    if code.dice < 0 or code.pips < 0:
        raise ValidationError(f"{code} is negative; a sheet code is 0D or more.")
    if code.pips > 2:
        raise ValidationError(
            f"{code} has {code.pips} pips; a die code has 0, 1 or 2 pips "
            f"(three pips make a die, so write {code.normalized()})."
        )
    if code.dice > 30:
        raise ValidationError(f"{code} is above 30D, beyond any character in the rules.")
    return code


class DieCodeFormField(forms.CharField):
    def __init__(self, *args, **kwargs):
        kwargs.pop("max_length", None)
        super().__init__(*args, **kwargs)
        self.widget.attrs.setdefault("maxlength", 12)
        self.widget.attrs.setdefault("inputmode", "text")
        self.widget.attrs.setdefault("autocapitalize", "characters")
        self.widget.attrs.setdefault("placeholder", "e.g. 3D+1")
        self.widget.attrs.setdefault("size", 6)

    def prepare_value(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return str(DieCode.from_pips(value))
        return str(value) if isinstance(value, DieCode) else value

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        return parse_sheet_code(value)


@lru_cache(maxsize=1024)
def code_from_pips(total_pips: int) -> DieCode:
    """``DieCode.from_pips``, remembered: a sheet reads the same few codes over and over, and a
    DieCode is immutable, so one instance per value can be shared."""
    return DieCode.from_pips(total_pips)


class DieCodeField(models.IntegerField):
    description = "A die code such as 4D+2, stored as total pips"

    @property
    def validators(self):
        # Not IntegerField's range validators: they would compare a DieCode with an int.
        return list(self._validators)

    def from_db_value(self, value, expression, connection):
        return None if value is None else code_from_pips(value)

    def to_python(self, value):
        if value is None or isinstance(value, DieCode):
            return value
        if isinstance(value, int):
            return DieCode.from_pips(value)
        return parse_sheet_code(value)

    def get_prep_value(self, value):
        if value is None:
            return None
        if isinstance(value, DieCode):
            return value.total_pips
        if isinstance(value, str):
            return parse_sheet_code(value).total_pips
        return int(value)

    def value_to_string(self, obj):
        value = self.value_from_object(obj)
        return "" if value is None else str(value)

    def formfield(self, **kwargs):
        return super(models.IntegerField, self).formfield(
            **{"form_class": DieCodeFormField, **kwargs}
        )
