# WRONG: always claims the first player wins (random positions almost always are
# wins). Kept to prove that the tests contain enough losing positions.
print("Yes")
