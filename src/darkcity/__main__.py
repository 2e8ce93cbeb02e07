from darkcity.cli import main

if __name__ == "__main__":  # not when a worker process (spawn) imports it as __mp_main__
    main()
