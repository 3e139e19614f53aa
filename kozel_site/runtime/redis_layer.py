"""What the site reads of channels-redis' layer and of the Redis behind it: which Redis
the configured channel layer uses, and that server's run id (new after a restart)."""

from __future__ import annotations

from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.utils.module_loading import import_string


def layer_redis_url() -> str | None:
    """The Redis of the default channel layer, if it is channels-redis' publish/subscribe
    layer (or a subclass of it); else None."""
    layer = settings.CHANNEL_LAYERS.get("default", {})
    if not issubclass(import_string(layer.get("BACKEND", "")), RedisPubSubChannelLayer):
        return None
    hosts = layer.get("CONFIG", {}).get("hosts") or []
    host = hosts[0] if hosts else None
    if isinstance(host, dict):
        host = host.get("address")
    return host if isinstance(host, str) else None


def client(url: str):
    """An asyncio client of that Redis, quick to give up (a look, not a wait)."""
    import redis.asyncio

    return redis.asyncio.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


async def run_id(redis_client) -> str:
    """The server's run id: the same until Redis restarts."""
    return (await redis_client.info("server"))["run_id"]
