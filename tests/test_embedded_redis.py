import redis

from api.service.embedded_redis import EmbeddedRedis


def test_embedded_redis_serves_and_stops(tmp_path):
    with EmbeddedRedis(tmp_path / "data", persist=False) as server:
        client = redis.Redis.from_url(server.url)
        client.set("k", "v")
        assert client.get("k") == b"v"
        process = server.process
    assert process.poll() is not None
