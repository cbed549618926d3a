FROM ubuntu:24.04 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ cmake ninja-build libboost-all-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON \
 && cmake --build build \
 && ctest --test-dir build --output-on-failure

FROM ubuntu:24.04
RUN apt-get update && apt-get install -y --no-install-recommends libboost-program-options1.83.0 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/tilerender /usr/local/bin/
RUN useradd -m render
USER render
ENTRYPOINT ["tilerender"]
