not even JavaScript (
