"""Admin pages as a person reads them, for the admin tests of every app.

`log_in` logs a test client in as a new superuser through the admin's login form;
`detail_page` reads a detail page: its title, and each field by its label, as the text it
shows and the pages it links to (a table's cells too, row by row).
"""

from dataclasses import dataclass, field
from html.parser import HTMLParser

LOGIN = "/admin/login/"
USERNAME = "reader"
PASSWORD = "correct horse battery staple"
# How a field shows a stored value no one can read.
UNREADABLE = ("b'", 'b"', "\\x", "None", "memory at", "object (")


@dataclass
class Field:
    text: str = ""
    links: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class DetailPage:
    title: str
    fields: dict[str, Field]


class _DetailParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.title = ""
        self.fields: dict[str, Field] = {}
        self._in_title = self._in_label = False
        self._label = ""
        self._readonly_depth = 0
        self._field: Field | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if self._readonly_depth:
            if tag == "div":
                self._readonly_depth += 1
            elif tag == "a":
                self._field.links.append(attributes["href"])
            elif tag == "img":
                self._text(attributes.get("alt", ""))
            elif tag == "tr":
                self._field.rows.append([])
            elif tag in ("td", "th"):
                self._field.rows[-1].append("")
            elif tag == "br":
                self._text(" ")
        elif tag == "h2" and not self.fields and not self.title:
            self._in_title = True
        elif tag == "label":
            self._in_label, self._label = True, ""
        elif tag == "div" and "readonly" in classes:
            self._readonly_depth = 1
            self._field = self.fields[self._label.strip().removesuffix(":")] = Field()

    def handle_endtag(self, tag):
        if tag == "h2":
            self._in_title = False
        elif tag == "label":
            self._in_label = False
        elif tag in ("td", "th") and self._readonly_depth:
            self._text(" ")
        elif tag == "div" and self._readonly_depth:
            self._readonly_depth -= 1
            if not self._readonly_depth:
                self._field.text = " ".join(self._field.text.split())
                self._field.rows = [[" ".join(cell.split()) for cell in row] for row in self._field.rows]

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        elif self._in_label:
            self._label += data
        elif self._readonly_depth:
            self._text(data)

    def _text(self, text: str):
        self._field.text += text
        if self._field.rows and self._field.rows[-1]:
            self._field.rows[-1][-1] += text


def log_in(client, django_user_model):
    """`client`, logged in through the login form as a new superuser."""
    django_user_model.objects.create_superuser(USERNAME, f"{USERNAME}@example.com", PASSWORD)
    response = client.post(LOGIN, {"username": USERNAME, "password": PASSWORD, "next": "/admin/"})
    assert (response.status_code, response["Location"]) == (302, "/admin/")
    return client


def detail_page(client, url: str) -> DetailPage:
    response = client.get(url)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    parser = _DetailParser()
    parser.feed(response.content.decode())
    page = DetailPage(" ".join(parser.title.split()), parser.fields)
    unreadable = {
        label: shown.text for label, shown in page.fields.items() if any(mark in shown.text for mark in UNREADABLE)
    }
    assert not unreadable, f"{url} shows stored values: {unreadable}"
    return page


def admin_change_url(app_model: str, pk) -> str:
    """`/admin/<app>/<model>/<pk>/change/` of `app_model`, `app.model`."""
    return f"/admin/{app_model.replace('.', '/')}/{pk}/change/"
