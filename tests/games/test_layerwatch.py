"""games/layerwatch.py watches the Redis of whatever Redis layer the settings name.

The end-to-end check is tests/faults/test_scale_out.py (Redis restarted under running
games); this one fails fast, without processes, when the watch would not even start.
"""

from kozel_site import env
from games import layerwatch

REDIS_URL = "redis://cache.internal:6379/2"


def test_the_scaled_setups_layer_is_watched(settings):
    settings.CHANNEL_LAYERS = env.channel_layers({"REDIS_URL": REDIS_URL})
    assert layerwatch.redis_url() == REDIS_URL


def test_channels_redis_own_layer_is_watched(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [REDIS_URL]}}}
    assert layerwatch.redis_url() == REDIS_URL


def test_the_in_memory_layer_has_nothing_to_watch(settings):
    settings.CHANNEL_LAYERS = env.channel_layers({})
    assert layerwatch.redis_url() is None
