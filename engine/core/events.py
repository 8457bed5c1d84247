"""Events: what happened, and who may know it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Event:
    """One thing that happened, e.g. ``Event("moved", {"seat": 0, "to": 7})``.

    ``visible_to`` is ``None`` for a public event, else the seats that may see it.
    A secret fact is told with two events: a private one to its owner and a public
    one that leaves the secret out.
    """

    type: str
    data: dict = field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_dict(self) -> dict:
        body = {"type": self.type, **self.data}
        if self.visible_to is not None:
            body["visible_to"] = list(self.visible_to)
        return body
