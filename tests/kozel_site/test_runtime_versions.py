"""A patch of a library's private parts loads only on the version it was written for."""

import axes
import channels
import daphne
import django
import pytest
import twisted

from kozel_site.runtime import (axes_wording, memory_layer, redis_cache, require_version,
                                socket_cycles, twisted_write)


def test_each_patch_was_written_for_the_installed_version():
    assert twisted.__version__.startswith(twisted_write.WRITTEN_FOR)
    assert axes.__version__.startswith(axes_wording.WRITTEN_FOR)
    assert channels.__version__.startswith(memory_layer.WRITTEN_FOR)
    assert daphne.__version__.startswith(socket_cycles.WRITTEN_FOR)
    assert django.__version__.startswith(redis_cache.WRITTEN_FOR)


def test_another_version_is_refused_with_what_to_check():
    with pytest.raises(ImportError) as refused:
        require_version("twisted_write", "Twisted", "27.1.0", "26.", "FileDescriptor.write")
    assert str(refused.value) == ("kozel_site.runtime.twisted_write was written for Twisted "
                                  "26.x, not 27.1.0: check FileDescriptor.write")
    require_version("twisted_write", "Twisted", "26.10.0", "26.", "FileDescriptor.write")
