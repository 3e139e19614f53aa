"""History rows (moves, round scores, rating records) are written once and never changed.

Models built on AppendOnlyModel refuse to update or delete a saved row, through the
instance or through a queryset, so the move log stays the game record it claims to be.
Deleting a whole match still cascades through the database (Django does that with raw
deletes); the admin offers no delete for history.
"""

from django.db import models


class AppendOnlyError(Exception):
    """Raised on an attempt to change or delete a history row."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.__name__} rows are history and cannot be updated.")

    def bulk_update(self, objs, fields, batch_size=None):
        raise AppendOnlyError(f"{self.model.__name__} rows are history and cannot be updated.")

    def delete(self):
        raise AppendOnlyError(f"{self.model.__name__} rows are history and cannot be deleted.")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are history and cannot be updated.")
        kwargs["force_insert"] = True
        super().save(**kwargs)

    def delete(self, using=None, keep_parents=False):
        raise AppendOnlyError(f"{type(self).__name__} rows are history and cannot be deleted.")
