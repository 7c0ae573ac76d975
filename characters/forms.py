import io
import secrets
from dataclasses import replace

from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageOps, UnidentifiedImageError

from characters.access import PLAYER_EDITABLE_FIELDS
from characters.models import Character, Currency, wound_level_label
from characters.services import MAX_STUNS, with_stun_points, wound_state
from rules import RuleSet
from rules.injuries import InjuryError, WoundLevel, parse_wound_level, wound_ladder

PORTRAIT_MAX_BYTES = 5 * 1024 * 1024
PORTRAIT_MAX_PIXELS = 25_000_000
PORTRAIT_SIDE = 1024
"""Portraits are stored at most this many pixels wide and high: enough for any sheet."""
PORTRAIT_FORMATS = {"JPEG", "PNG", "GIF", "WEBP"}

# Pillow refuses (DecompressionBombError) to open pictures over twice this many pixels, and
# warns above it; the portrait field below refuses anything over it before decoding a pixel.
Image.MAX_IMAGE_PIXELS = PORTRAIT_MAX_PIXELS


class RollForm(forms.Form):
    actions = forms.IntegerField(
        min_value=1,
        max_value=10,
        initial=1,
        label="Actions this round",
        help_text="Each action beyond the first takes 1D from every roll.",
    )
    modifier = forms.IntegerField(min_value=-100, max_value=100, initial=0, label="Modifier")
    cp = forms.IntegerField(min_value=0, max_value=50, initial=0, label="Character Points")
    force_point = forms.BooleanField(required=False, label="Spend a Force Point (doubles the code)")
    difficulty = forms.IntegerField(
        min_value=1, max_value=200, required=False, label="Difficulty (optional)"
    )
    note = forms.CharField(max_length=60, required=False, label="What for (optional)")
    hidden = forms.BooleanField(required=False, label="Hidden from players")

    def __init__(self, *args, cp_limit=None, allow_hidden=False, hidden_by_default=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["hidden"].initial = hidden_by_default
        if cp_limit is not None:
            self.fields["cp"] = forms.IntegerField(
                min_value=0,
                max_value=cp_limit,
                initial=0,
                label="Character Points",
                help_text=f"Up to {cp_limit} on this roll.",
            )
        if not allow_hidden:
            del self.fields["hidden"]


class PortraitField(forms.ImageField):
    """A picture for the sheet: at most 5 MB and 25 megapixels (both checked before any pixel
    is decoded: the size from the upload, the dimensions from the file's header), then decoded
    and re-encoded as WebP at most 1024 px across, which drops whatever the file carried
    besides the picture (metadata, appended scripts), under a fresh random name."""

    default_error_messages = {
        "too_big": "The picture is larger than 5 MB. Choose a smaller file.",
        "too_many_pixels": (
            "The picture is larger than 25 megapixels ({width} × {height}). Choose a smaller one."
        ),
        "invalid_image": "Upload a JPEG, PNG, GIF or WebP picture; this file is not one.",
    }

    def to_python(self, data):
        upload = forms.FileField.to_python(self, data)  # ImageField's own check decodes it all
        if upload is None:
            return None
        if upload.size > PORTRAIT_MAX_BYTES:
            raise forms.ValidationError(self.error_messages["too_big"], code="too_big")
        try:
            upload.seek(0)
            with Image.open(upload) as image:  # reads the header only
                if image.format not in PORTRAIT_FORMATS:
                    raise forms.ValidationError(
                        self.error_messages["invalid_image"], code="invalid_image"
                    )
                width, height = image.size
                if width * height > PORTRAIT_MAX_PIXELS:
                    raise self._too_many_pixels(width, height)
                picture = _re_encode(image)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):  # warning: -W error
            raise self._too_many_pixels(*_claimed_size(upload)) from None
        except (OSError, SyntaxError, ValueError, UnidentifiedImageError, EOFError):
            raise forms.ValidationError(
                self.error_messages["invalid_image"], code="invalid_image"
            ) from None
        return SimpleUploadedFile(
            f"{secrets.token_urlsafe(16)}.webp", picture, content_type="image/webp"
        )

    def _too_many_pixels(self, width, height):
        return forms.ValidationError(
            self.error_messages["too_many_pixels"].format(width=width, height=height),
            code="too_many_pixels",
        )


def _claimed_size(upload) -> tuple[str, str]:
    """The size a refused header claims, for the message ("?" when it cannot be read)."""
    upload.seek(0)
    head = upload.read(24)
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) == 24:
        return str(int.from_bytes(head[16:20])), str(int.from_bytes(head[20:24]))
    return "?", "?"


def _re_encode(image: Image.Image) -> bytes:
    """The first frame, turned upright, scaled to fit PORTRAIT_SIDE, as WebP with no
    metadata."""
    image.seek(0)
    image.load()
    picture = ImageOps.exif_transpose(image)
    transparent = "A" in picture.getbands() or "transparency" in picture.info
    picture = picture.convert("RGBA" if transparent else "RGB")
    picture.thumbnail((PORTRAIT_SIDE, PORTRAIT_SIDE))
    out = io.BytesIO()
    picture.save(out, "WEBP", quality=85)
    return out.getvalue()


class WoundLevelField(forms.ChoiceField):
    """A level on the campaign's wound ladder: offered from ``rules.injuries.wound_ladder``,
    checked by ``rules.injuries.parse_wound_level`` (whose refusal is the error shown)."""

    def __init__(self, *, ruleset: RuleSet, **kwargs):
        self.ruleset = ruleset
        ladder = wound_ladder(ruleset=ruleset)
        super().__init__(choices=[(lvl.value, wound_level_label(lvl)) for lvl in ladder], **kwargs)

    def validate(self, value):
        forms.Field.validate(self, value)
        try:
            parse_wound_level(value, ruleset=self.ruleset)
        except InjuryError as exc:
            raise forms.ValidationError(
                f"{exc}. Choose a level on this campaign's wound ladder.", code="invalid_choice"
            ) from None


class CharacterForm(forms.ModelForm):
    """The sheet's editable fields; players get only PLAYER_EDITABLE_FIELDS. The GM sets the
    wound level from the campaign's ladder and the stun points he carries (0 clears them);
    both are stored as the engine's wound state (``Character.set_wound_state``)."""

    stuns = forms.IntegerField(
        min_value=0,
        max_value=MAX_STUNS,
        label="Stuns",
        help_text="Stun points he carries now; 0 clears them. Each takes 1D off every roll "
        "this round and the next.",
    )

    class Meta:
        model = Character
        fields = (
            "name",
            "species",
            "template",
            "gender",
            "age",
            "height",
            "dexterity",
            "knowledge",
            "mechanical",
            "perception",
            "strength",
            "technical",
            "move",
            "force_sensitive",
            "wound_level",
            "stuns",
            "secret",
            "background",
            "personality",
            "notes",
            "portrait",
        )
        widgets = {
            "background": forms.Textarea(attrs={"rows": 3}),
            "personality": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }
        field_classes = {"portrait": PortraitField}
        help_texts = {"portrait": "JPEG, PNG, GIF or WebP; at most 5 MB and 25 megapixels."}

    def __init__(self, *args, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.ruleset = self.instance.campaign.ruleset
        self.before = wound_state(self.instance, ruleset=self.ruleset)
        self.fields["wound_level"] = WoundLevelField(
            ruleset=self.ruleset,
            label="Wound level",
            help_text="The levels of this campaign's wound ladder.",
        )
        self.initial["wound_level"] = self.before.level.value
        self.initial["stuns"] = sum(stun.points for stun in self.before.stuns)
        if not gm:
            for name in list(self.fields):
                if name not in PLAYER_EDITABLE_FIELDS:
                    del self.fields[name]
        elif not self.instance.is_npc:
            self.fields.pop("secret", None)

    def _post_clean(self):
        super()._post_clean()
        if "wound_level" not in self.fields or self.errors:
            return
        state = replace(self.before, level=WoundLevel(self.cleaned_data["wound_level"]))
        stuns = self.cleaned_data["stuns"]
        self.instance.set_wound_state(with_stun_points(state, stuns, ruleset=self.ruleset))


class AwardForm(forms.Form):
    currency = forms.ChoiceField(choices=Currency.choices)
    delta = forms.IntegerField(
        label="Change",
        help_text="Positive to award, negative to take away.",
        min_value=-1_000_000,
        max_value=1_000_000,
    )
    reason = forms.CharField(max_length=200)

    def clean_delta(self):
        delta = self.cleaned_data["delta"]
        if delta == 0:
            raise forms.ValidationError("Enter an amount other than 0.")
        return delta
