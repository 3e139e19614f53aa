"""games/room/layerwatch.py watches the Redis of whatever Redis layer the settings name.

The end-to-end check is tests/faults/test_scale_out.py (Redis restarted under running
games); this one fails fast, without processes, when the watch would not even start.
"""

from channels_redis.pubsub import RedisPubSubChannelLayer

from kozel_site import env
from games.room import layerwatch

REDIS_URL = "redis://cache.internal:6379/2"


def test_the_scaled_setups_layer_is_watched(settings):
    settings.CHANNEL_LAYERS = env.channel_layers({"REDIS_URL": REDIS_URL})
    assert layerwatch.redis_url() == REDIS_URL


class OwnLayer(RedisPubSubChannelLayer):
    """A subclass, as the scaled setup's layer once was (its name check failed on that)."""


def test_a_subclass_of_the_layer_is_watched_too(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.OwnLayer",
                                           "CONFIG": {"hosts": [REDIS_URL]}}}
    assert layerwatch.redis_url() == REDIS_URL


def test_the_in_memory_layer_has_nothing_to_watch(settings):
    settings.CHANNEL_LAYERS = env.channel_layers({})
    assert layerwatch.redis_url() is None
