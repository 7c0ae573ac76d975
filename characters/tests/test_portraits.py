"""Portraits: files over 5 MB or 25 megapixels (and decompression bombs) are refused with a
form error; what is accepted is re-encoded (anything appended and the metadata dropped) under a
fresh random name; a replaced, cleared or orphaned portrait file is deleted."""

import io
import os
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from characters.forms import CharacterForm
from characters.models import Character
from characters.tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.django_db,
    # Pillow warns on opening a header over its limit; the form refuses such files right after.
    pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning"),
]


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _stored_files(media_root) -> list[str]:
    root = media_root / "portraits"
    return sorted(os.listdir(root)) if root.exists() else []


def _png(size=(64, 48), colour=(200, 30, 30), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG", **save)
    return out.getvalue()


def _upload(data: bytes, name="portrait.png", content_type="image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def _post_portrait(client, character, upload):
    client.force_login(character.owner)
    return client.post(
        f"/campaigns/{character.campaign_id}/characters/{character.pk}/edit/",
        {"name": character.name, "portrait": upload},
    )


def _form(character, upload):
    return CharacterForm(
        {"name": character.name}, {"portrait": upload}, instance=character, gm=False
    )


# --- refused -------------------------------------------------------------------------------------
def test_a_portrait_over_5_mb_is_refused_with_a_form_error(client, media_root):
    noise = Image.frombytes("RGB", (1500, 1400), os.urandom(1500 * 1400 * 3))
    out = io.BytesIO()
    noise.save(out, "PNG", compress_level=0)
    assert out.tell() > 6_000_000
    character = CharacterFactory()
    response = _post_portrait(client, character, _upload(out.getvalue()))
    assert response.status_code == 400
    assert "5 MB" in response.text
    character.refresh_from_db()
    assert not character.portrait
    assert _stored_files(media_root) == []


def test_a_portrait_over_25_megapixels_is_refused_with_a_form_error(client, media_root):
    data = _png(size=(6000, 5000), colour=(0, 0, 0))  # 30 MP of one colour: a small file
    assert len(data) < 5_000_000
    character = CharacterFactory()
    response = _post_portrait(client, character, _upload(data))
    assert response.status_code == 400
    assert "25 megapixels" in response.text
    character.refresh_from_db()
    assert not character.portrait
    assert _stored_files(media_root) == []


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge picture (a decompression bomb's header)."""
    data = bytearray(_png(size=(1, 1)))
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return bytes(data)


@pytest.mark.parametrize(("width", "height"), [(20_000, 20_000), (100_000, 100_000)])
def test_a_decompression_bomb_is_refused_without_decoding_it(width, height):
    form = _form(CharacterFactory(), _upload(_png_claiming(width, height)))
    assert not form.is_valid()
    assert "25 megapixels" in str(form.errors["portrait"])


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"just some text, not a picture", "portrait.png"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "p.svg"),
        (_png()[:40], "truncated.png"),
    ],
)
def test_a_file_that_is_no_usable_picture_is_refused(data, name):
    form = _form(CharacterFactory(), _upload(data, name=name))
    assert not form.is_valid()
    assert "portrait" in form.errors


# --- accepted and re-encoded ---------------------------------------------------------------------
def test_a_gif_with_a_script_appended_is_stored_re_encoded_without_it(client, media_root):
    out = io.BytesIO()
    Image.new("P", (40, 40), 3).save(out, "GIF")
    payload = out.getvalue() + b"<script>alert(document.cookie)</script>"
    character = CharacterFactory()
    response = _post_portrait(client, character, _upload(payload, "x.gif", "image/gif"))
    assert response.status_code == 302
    character.refresh_from_db()
    stored = (media_root / character.portrait.name).read_bytes()
    assert b"<script" not in stored
    assert Image.open(io.BytesIO(stored)).size == (40, 40)


def test_an_accepted_portrait_gets_a_fresh_random_name(client):
    character = CharacterFactory()
    _post_portrait(client, character, _upload(_png(), name="../../evil name.png"))
    other = CharacterFactory()
    _post_portrait(client, other, _upload(_png(), name="../../evil name.png"))
    character.refresh_from_db()
    other.refresh_from_db()
    assert character.portrait.name.startswith("portraits/")
    assert "evil" not in character.portrait.name
    assert character.portrait.name != other.portrait.name


def test_metadata_is_stripped_from_an_accepted_portrait(client, media_root):
    exif = Image.Exif()
    exif[0x010E] = "secret location notes"  # ImageDescription
    out = io.BytesIO()
    Image.new("RGB", (50, 50), (10, 120, 10)).save(out, "JPEG", exif=exif)
    assert b"secret location" in out.getvalue()
    character = CharacterFactory()
    _post_portrait(client, character, _upload(out.getvalue(), "p.jpg", "image/jpeg"))
    character.refresh_from_db()
    assert b"secret location" not in (media_root / character.portrait.name).read_bytes()


def test_a_large_portrait_is_scaled_down_for_the_sheet(client, media_root):
    character = CharacterFactory()
    _post_portrait(client, character, _upload(_png(size=(3000, 2000))))
    character.refresh_from_db()
    width, height = Image.open(media_root / character.portrait.name).size
    assert max(width, height) <= 1024
    assert abs(width / height - 1.5) < 0.01


# --- old files deleted ---------------------------------------------------------------------------
def test_replacing_a_portrait_deletes_the_old_file(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png(colour=(1, 2, 3))))
    character.refresh_from_db()
    old = character.portrait.name
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_portrait(client, character, _upload(_png(colour=(9, 9, 9))))
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.portrait.name != old
    assert _stored_files(media_root) == [os.path.basename(character.portrait.name)]


def test_a_refused_replacement_keeps_the_old_portrait(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png()))
    character.refresh_from_db()
    old = character.portrait.name
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png(size=(6000, 5000))))
    character.refresh_from_db()
    assert character.portrait.name == old
    assert (media_root / old).exists()


def test_clearing_a_portrait_deletes_its_file(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png()))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/campaigns/{character.campaign_id}/characters/{character.pk}/edit/",
            {"name": character.name, "portrait-clear": "on"},
        )
    character.refresh_from_db()
    assert not character.portrait
    assert _stored_files(media_root) == []


def test_deleting_a_character_deletes_its_portrait(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png()))
    assert len(_stored_files(media_root)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/campaigns/{character.campaign_id}/characters/{character.pk}/delete/",
            {"confirm_name": character.name},
        )
    assert not Character.objects.filter(pk=character.pk).exists()
    assert _stored_files(media_root) == []


def test_deleting_a_campaign_deletes_its_characters_portraits(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png()))
    with django_capture_on_commit_callbacks(execute=True):
        character.campaign.delete()
    assert _stored_files(media_root) == []


def test_saving_other_fields_keeps_the_portrait(
    client, media_root, django_capture_on_commit_callbacks
):
    character = CharacterFactory()
    with django_capture_on_commit_callbacks(execute=True):
        _post_portrait(client, character, _upload(_png()))
    character.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/campaigns/{character.campaign_id}/characters/{character.pk}/edit/",
            {"name": "Renamed"},
        )
    character.refresh_from_db()
    assert character.name == "Renamed"
    assert (media_root / character.portrait.name).exists()
