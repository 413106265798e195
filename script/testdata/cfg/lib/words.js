exports.prefix = "uv";
